import { parseInstrument } from '../../instruments';

/** The layouts of bar files (parse-bars.ts reads them), light enough for the Market Data page to list. */

export interface BarMapping {
  time: string;
  /** Whether the time column gives the bar's start (default) or its end. */
  timeIs?: 'start' | 'end';
  open: string;
  high: string;
  low: string;
  close: string;
  volume?: string;
  symbol?: string;
}

export const BAR_MAPPING_FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume', 'symbol'] as const;

export interface BarFormat {
  id: 'ninjatrader-bars' | 'tradingview-bars' | 'databento-ohlcv' | 'mapped-bars';
  label: string;
  columns: string;
}

export const BAR_FORMATS: readonly BarFormat[] = [
  {
    id: 'ninjatrader-bars',
    label: 'NinjaTrader historical data export',
    columns: 'yyyyMMdd HHmmss;open;high;low;close;volume (no header, time = bar end)',
  },
  { id: 'tradingview-bars', label: 'TradingView chart export', columns: 'time,open,high,low,close,Volume (unix seconds or ISO time)' },
  { id: 'databento-ohlcv', label: 'Databento OHLCV CSV', columns: 'ts_event,rtype,publisher_id,instrument_id,open,high,low,close,volume,symbol' },
  { id: 'mapped-bars', label: 'Your column mapping', columns: 'time, open, high, low, close, volume (optional), symbol (optional)' },
];

/** Zones of the formats' times when the file does not say: NinjaTrader 8's help says its exports are written in UTC. */
export const DEFAULT_BAR_ZONE: Partial<Record<BarFormat['id'], string>> = { 'ninjatrader-bars': 'UTC' };

/**
 * The contract a bar file's name suggests, for the dialog to offer: NinjaTrader names files after the instrument
 * ('MNQ 12-25.Last.txt'), TradingView after the chart's symbol ('CME_MINI_MNQZ2025, 1.csv'). '' when nothing fits.
 */
export function guessContractFromFileName(name: string): string {
  const base = name.replace(/\.(txt|csv)$/i, '').replace(/\.(last|bid|ask)$/i, '');
  const symbol = base.split(',')[0]!.trim().split(/[_:]/).pop() ?? '';
  const fourDigitYear = /^([A-Z0-9]{1,4}?)([FGHJKMNQUVXZ])(20\d{2})$/i.exec(symbol);
  const candidate = fourDigitYear ? `${fourDigitYear[1]}${fourDigitYear[2]}${fourDigitYear[3]!.slice(-1)}` : symbol;
  const instrument = parseInstrument(candidate);
  return instrument.isFuturesContract ? instrument.contract : '';
}
