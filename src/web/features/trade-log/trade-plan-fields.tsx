import { Input, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import type { ChangeEvent } from 'react';
import { formatUsd, toCents, type Cents } from '../../../domain/money';
import { checkRiskPrices, computeRMultiple, formatR, resolvePlannedRisk, type RiskDefault, type RiskSource } from '../../../domain/risk';
import { isClockTime, type ExecutionFormValues, type RiskKind } from '../../../domain/trades';

/** Prices and sizes as a trader types them: digits, commas, one point, a sign. */
const DECIMAL_TYPING = /^-?[\d,]*\.?\d*$/;

const SOURCE_WORDS: Readonly<Record<RiskSource, string>> = {
  stop: 'to the stop',
  amount: 'as set',
  'default-stop': 'from your default stop',
  'default-amount': 'from your default risk',
};

interface PlanPreview {
  symbol: string;
  accountId: string | null;
  netCents: Cents;
  defaults: readonly RiskDefault[];
}

/**
 * The Add/Edit Trade dialog's execution and plan: side, size, prices and times, all optional, then a stop
 * price or a dollar risk and a target. Under them, the planned risk and the R-multiple the trade will be saved with,
 * from its own plan or the default that applies.
 */
export function TradePlanFields({
  values,
  onChange,
  preview,
  timeZoneName,
}: {
  values: ExecutionFormValues;
  onChange: (patch: Partial<ExecutionFormValues>) => void;
  preview: PlanPreview;
  /** The trader's zone, named beside the times at the entry's own date; none while the trade has no date. */
  timeZoneName: string | null;
}) {
  const decimalBox = (key: 'quantity' | 'entryPrice' | 'exitPrice' | 'stopPrice' | 'riskAmount' | 'targetPrice') => ({
    value: values[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const text = e.currentTarget.value.replace(/^\$/, '');
      if (DECIMAL_TYPING.test(text.trim())) onChange({ [key]: text });
    },
    inputMode: 'decimal' as const,
  });
  const plain = (text: string) => text.replace(/,/g, '').trim() || null;
  const plan = {
    accountId: preview.accountId,
    symbol: preview.symbol,
    side: values.side,
    entryPrice: plain(values.entryPrice),
    quantity: plain(values.quantity),
    stopPrice: values.riskKind === 'stop' ? plain(values.stopPrice) : null,
    riskCents: values.riskKind === 'amount' && plain(values.riskAmount) ? toCents(plain(values.riskAmount)) : null,
    targetPrice: plain(values.targetPrice),
  };
  // The server's own check, shown on the field before the trader saves.
  const problem = checkRiskPrices(plan);
  const planned = problem ? null : resolvePlannedRisk(plan, preview.defaults);
  const r = planned && computeRMultiple(preview.netCents, planned.cents);
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Input.Wrapper label="Side" id="trade-side-label">
          <SegmentedControl
            fullWidth
            data={[
              { value: '', label: 'None' },
              { value: 'Long', label: 'Long' },
              { value: 'Short', label: 'Short' },
            ]}
            value={values.side ?? ''}
            onChange={(side) => onChange({ side: side === 'Long' || side === 'Short' ? side : null })}
            aria-labelledby="trade-side-label"
            data-testid="trade-side"
          />
        </Input.Wrapper>
        <TextInput label="Quantity" {...decimalBox('quantity')} data-testid="trade-quantity" />
        <TextInput label="Entry price" {...decimalBox('entryPrice')} data-testid="trade-entry-price" />
        <TextInput label="Exit price" {...decimalBox('exitPrice')} data-testid="trade-exit-price" />
        <TimeInput
          label="Entry time"
          description={timeZoneName ?? undefined}
          value={values.entryTime}
          onChange={(e) => onChange({ entryTime: e.currentTarget.value })}
          error={isClockTime(values.entryTime) ? undefined : 'A time such as 09:35'}
          data-testid="trade-entry-time"
        />
        <TimeInput
          label="Exit time"
          description="Before the entry: the next day"
          value={values.exitTime}
          onChange={(e) => onChange({ exitTime: e.currentTarget.value })}
          error={isClockTime(values.exitTime) ? undefined : 'A time such as 10:02'}
          data-testid="trade-exit-time"
        />
        <Input.Wrapper label="Planned risk" id="trade-risk-kind-label">
          <SegmentedControl
            fullWidth
            data={[
              { value: 'stop', label: 'Stop price' },
              { value: 'amount', label: 'Dollar risk' },
            ]}
            value={values.riskKind}
            onChange={(kind) => onChange({ riskKind: kind as RiskKind })}
            aria-labelledby="trade-risk-kind-label"
            data-testid="trade-risk-kind"
          />
        </Input.Wrapper>
        {values.riskKind === 'stop' ? (
          <TextInput
            label="Stop price"
            {...decimalBox('stopPrice')}
            error={problem?.field === 'stop_price' ? capitalize(problem.message) : undefined}
            data-testid="trade-stop-price"
          />
        ) : (
          <TextInput label="Risk" leftSection="$" {...decimalBox('riskAmount')} data-testid="trade-risk-amount" />
        )}
        <TextInput
          label="Target price"
          {...decimalBox('targetPrice')}
          error={problem?.field === 'target_price' ? capitalize(problem.message) : undefined}
          data-testid="trade-target-price"
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed" data-testid="trade-risk-preview">
        {planned
          ? `Planned risk ${formatUsd(planned.cents)} ${SOURCE_WORDS[planned.source]} · ${formatR(r ?? 0)}`
          : 'No planned risk: set a stop or a dollar risk, or a default in Risk defaults.'}
      </Text>
    </Stack>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
