import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseReportFilterParams, REPORT_FILTER_KEYS, writeReportFilterParams, type ReportFilter } from '../../../domain/reports/filter';

/**
 * The filter lives in the URL (shareable, back and forward work): reading it parses the page's search
 * parameters, changing it pushes a new history entry. `prefix` keeps a second filter beside the first (Compare's B:
 * ?b.symbol=ES), other parameters of the page stay as they are.
 */
export function useReportFilter(prefix = ''): [ReportFilter, (next: ReportFilter, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const own = useMemo(() => {
    if (!prefix) return params;
    const picked = new URLSearchParams();
    for (const [key, value] of params) if (key.startsWith(prefix)) picked.append(key.slice(prefix.length), value);
    return picked;
  }, [params, prefix]);
  const text = own.toString();
  const filter = useMemo(() => parseReportFilterParams(new URLSearchParams(text)), [text]);
  const setFilter = useCallback(
    (next: ReportFilter, options: { replace?: boolean } = {}) => {
      setParams(
        (current) => {
          const kept = new URLSearchParams();
          for (const [key, value] of current) {
            const mine = prefix ? key.startsWith(prefix) : !key.includes('.') && isFilterKey(key);
            if (!mine) kept.append(key, value);
          }
          for (const [key, value] of writeReportFilterParams(next)) kept.append(`${prefix}${key}`, value);
          return kept;
        },
        { replace: options.replace ?? false },
      );
    },
    [prefix, setParams],
  );
  return [filter, setFilter];
}

const FILTER_KEYS: ReadonlySet<string> = new Set(REPORT_FILTER_KEYS);
const isFilterKey = (key: string) => FILTER_KEYS.has(key);
