import { Anchor, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { DAY_NAMES } from '../../../domain/dates';
import { PROP_TEMPLATES, findPropTemplate, type PropTemplate, type TemplateRuleKey } from '../../../domain/prop/templates';
import { EMPTY_RULE_SET, RULE_LABELS, type PropRuleSet } from '../../../domain/prop/types';
import type { RuleSet } from '../../shared/api';
import { useSaveRules } from './api';

const SCRATCH = 'scratch';
const PHONE_QUERY = '(max-width: 47.99em)';

/** Dollars in the form, cents in the rules. */
const toDollars = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : cents / 100);
const toCentsOrNull = (value: string | number) => (value === '' || !Number.isFinite(Number(value)) ? null : Math.round(Number(value) * 100));

function RuleBlock(props: { label: string; enabled: boolean; onToggle: (on: boolean) => void; children: ReactNode; testId: string }) {
  return (
    <Stack gap={6} data-testid={props.testId}>
      <Checkbox label={props.label} checked={props.enabled} onChange={(e) => props.onToggle(e.currentTarget.checked)} fw={600} />
      {props.enabled && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" pl={{ base: 0, xs: 'lg' }}>
          {props.children}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** A money field of a rule, in dollars. */
function Money(props: { label: string; cents: number | null; onChange: (cents: number | null) => void; description?: string }) {
  return (
    <NumberInput
      label={props.label}
      description={props.description}
      value={toDollars(props.cents)}
      onChange={(v) => props.onChange(toCentsOrNull(v))}
      prefix="$"
      thousandSeparator=","
      decimalScale={2}
      min={0}
    />
  );
}

const ruleName = (rule: TemplateRuleKey) => RULE_LABELS[rule === 'profitTargetCents' ? 'profitTarget' : rule];
const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

/**
 * Where a template's figures come from, rule by rule: the firm's own pages, or only third-party reviews (to be
 * confirmed with the firm), each with the day it was read. Nothing here claims a look at the firm's page that was not
 * taken.
 */
function TemplateSources({ template }: { template: PropTemplate }) {
  const reviewed = template.figures.filter((f) => !f.fromFirm);
  const firm = template.figures.filter((f) => f.fromFirm);
  return (
    <Stack gap={4} data-testid="prop-template-source">
      <Text size="xs" c="dimmed">
        Figures read on {template.checkedOn}.
        {firm.length > 0 && ` From ${template.firm}'s own pages: ${firm.map((f) => ruleName(f.rule)).join(', ')}.`}
        {reviewed.length > 0 && ` Read in third-party reviews (confirm with your firm): ${reviewed.map((f) => ruleName(f.rule)).join(', ')}.`}{' '}
        {template.notes} The firm&apos;s own terms are authoritative: check them on{' '}
        <Anchor href={template.sourceUrl} target="_blank" rel="noopener noreferrer" size="xs">
          {hostOf(template.sourceUrl)}
        </Anchor>{' '}
        and edit any figure here.
      </Text>
      <Text size="xs" c="dimmed" component="ul" m={0} pl="md">
        {template.figures.map((figure) => (
          <li key={figure.rule}>
            {ruleName(figure.rule)}:{' '}
            {figure.sources.map((source, i) => (
              <span key={source.id}>
                {i > 0 && ', '}
                <Anchor href={source.url} target="_blank" rel="noopener noreferrer" size="xs">
                  {hostOf(source.url)}
                </Anchor>{' '}
                ({source.publisher === 'firm' ? "the firm's page" : 'a review'}, read {source.readOn})
              </span>
            ))}
          </li>
        ))}
      </Text>
    </Stack>
  );
}

/** Breaking a rule: fails the account (hard) or costs what the firm takes for it (soft). */
function BreachSelect<Soft extends string>(props: {
  value: 'fail' | Soft;
  soft: Soft;
  softLabel: string;
  onChange: (value: 'fail' | Soft) => void;
  hardDisabled?: boolean;
}) {
  return (
    <Select
      label="Breaking it"
      value={props.value}
      onChange={(v) => props.onChange((v ?? props.soft) as 'fail' | Soft)}
      allowDeselect={false}
      data={[
        { value: 'fail', label: 'Fails the account (hard)', disabled: props.hardDisabled },
        { value: props.soft, label: props.softLabel },
      ]}
    />
  );
}

/**
 * The account's rule set: a template's figures, dated and sourced, or one from scratch, each limit editable, each
 * breakable rule hard or soft. The firm's own terms stay authoritative, and the dialog says so.
 */
export function RulesEditor(props: { accountId: string; ruleSet: RuleSet | null; funded: boolean; onClose: () => void }) {
  const { accountId, ruleSet, funded, onClose } = props;
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [templateId, setTemplateId] = useState<string>(ruleSet?.template_id ?? SCRATCH);
  const [rules, setRules] = useState<PropRuleSet>(ruleSet?.rules ?? EMPTY_RULE_SET);
  const [startsOn, setStartsOn] = useState(ruleSet?.starts_on ?? '');
  const [active, setActive] = useState(ruleSet?.active ?? true);
  const save = useSaveRules(accountId);
  const template = templateId === SCRATCH ? null : findPropTemplate(templateId);
  const set = <K extends keyof PropRuleSet>(key: K, value: PropRuleSet[K]) => setRules((r) => ({ ...r, [key]: value }));

  const chooseTemplate = (id: string | null) => {
    const next = id ?? SCRATCH;
    setTemplateId(next);
    setRules(next === SCRATCH ? EMPTY_RULE_SET : (findPropTemplate(next)?.rules ?? EMPTY_RULE_SET));
  };

  const submit = () => {
    save.mutate(
      { template_id: templateId === SCRATCH ? null : templateId, rules, starts_on: startsOn.trim() === '' ? null : startsOn.trim(), active },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'Rules saved' });
          onClose();
        },
        // The server names the field of a limit it refuses.
        onError: (error) => notifications.show({ color: 'red', title: 'Failed to save the rules', message: error.message }),
      },
    );
  };

  const firms = [...new Set(PROP_TEMPLATES.map((t) => t.firm))];
  const { dailyLoss, maxLoss, consistency, minProfitDays, maxPosition, tradingHours, payout } = rules;
  const lockChoice = maxLoss?.lockAboveStartCents === null || maxLoss === null ? 'never' : maxLoss.lockAboveStartCents === 0 ? 'start' : 'above';

  return (
    <Modal opened onClose={onClose} title="Account Rules" size="lg" fullScreen={phone} data-testid="prop-rules-editor">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Select
            label="Template"
            value={templateId}
            onChange={chooseTemplate}
            allowDeselect={false}
            data={[
              { group: 'Custom', items: [{ value: SCRATCH, label: 'From scratch' }] },
              ...firms.map((firm) => ({
                group: firm,
                items: PROP_TEMPLATES.filter((t) => t.firm === firm).map((t) => ({ value: t.id, label: `${t.firm} ${t.plan}` })),
              })),
            ]}
            data-testid="prop-template"
          />
          {template && <TemplateSources template={template} />}
          {!template && (
            <Text size="xs" c="dimmed">
              Set each limit as your firm words it. The firm&apos;s own terms are authoritative.
            </Text>
          )}

          <RuleBlock
            label="Profit target"
            enabled={rules.profitTargetCents !== null}
            onToggle={(on) => set('profitTargetCents', on ? 300_000 : null)}
            testId="rule-profit-target"
          >
            <Money label="Target profit" cents={rules.profitTargetCents} onChange={(c) => set('profitTargetCents', c)} />
          </RuleBlock>

          <RuleBlock
            label="Daily loss limit"
            enabled={dailyLoss !== null}
            onToggle={(on) => set('dailyLoss', on ? { limitCents: 100_000, onBreach: 'fail', check: 'intraday' } : null)}
            testId="rule-daily-loss"
          >
            {dailyLoss && (
              <>
                <Money
                  label="Limit on the trading day, net of fees"
                  cents={dailyLoss.limitCents}
                  onChange={(c) => set('dailyLoss', { ...dailyLoss, limitCents: c ?? 0 })}
                />
                <BreachSelect
                  value={dailyLoss.onBreach}
                  soft="stop-day"
                  softLabel="Ends the day (soft)"
                  onChange={(v) => set('dailyLoss', { ...dailyLoss, onBreach: v })}
                />
                <Select
                  label="Checked"
                  value={dailyLoss.check}
                  onChange={(v) => set('dailyLoss', { ...dailyLoss, check: (v ?? 'intraday') as 'intraday' | 'end-of-day' })}
                  allowDeselect={false}
                  data={[
                    { value: 'intraday', label: 'After each closed trade' },
                    { value: 'end-of-day', label: "At the day's close" },
                  ]}
                />
              </>
            )}
          </RuleBlock>

          <RuleBlock
            label="Maximum loss limit"
            enabled={maxLoss !== null}
            onToggle={(on) => set('maxLoss', on ? { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 } : null)}
            testId="rule-max-loss"
          >
            {maxLoss && (
              <>
                <Money label="Drawdown allowed" cents={maxLoss.amountCents} onChange={(c) => set('maxLoss', { ...maxLoss, amountCents: c ?? 0 })} />
                <Select
                  label="Threshold"
                  description={
                    maxLoss.trailing === 'static'
                      ? 'From the starting balance'
                      : maxLoss.trailing === 'end-of-day'
                        ? 'Follows the highest balance at a close'
                        : 'Follows the highest balance after a closed trade'
                  }
                  value={maxLoss.trailing}
                  onChange={(v) => set('maxLoss', { ...maxLoss, trailing: (v ?? 'static') as 'static' | 'end-of-day' | 'intraday' })}
                  allowDeselect={false}
                  data={[
                    { value: 'static', label: 'Static' },
                    { value: 'end-of-day', label: 'Trailing, end of day' },
                    { value: 'intraday', label: 'Trailing, after each trade' },
                  ]}
                />
                {maxLoss.trailing !== 'static' && (
                  <Select
                    label="Stops trailing"
                    value={lockChoice}
                    onChange={(v) =>
                      set('maxLoss', {
                        ...maxLoss,
                        lockAboveStartCents: v === 'never' ? null : v === 'start' ? 0 : maxLoss.lockAboveStartCents || 10_000,
                      })
                    }
                    allowDeselect={false}
                    data={[
                      { value: 'never', label: 'Never' },
                      { value: 'start', label: 'At the starting balance' },
                      { value: 'above', label: 'A set amount above it' },
                    ]}
                  />
                )}
                {maxLoss.trailing !== 'static' && lockChoice === 'above' && (
                  <Money
                    label="Amount above the start"
                    cents={maxLoss.lockAboveStartCents}
                    onChange={(c) => set('maxLoss', { ...maxLoss, lockAboveStartCents: c ?? 0 })}
                  />
                )}
                <BreachSelect
                  value={maxLoss.onBreach ?? 'fail'}
                  soft="stop-day"
                  softLabel="Ends the day (soft: a personal guard)"
                  onChange={(v) => set('maxLoss', { ...maxLoss, onBreach: v })}
                />
              </>
            )}
          </RuleBlock>

          <RuleBlock
            label="Consistency"
            enabled={consistency !== null}
            onToggle={(on) => set('consistency', on ? { maxBestDayPct: 50, of: 'profit' } : null)}
            testId="rule-consistency"
          >
            {consistency && (
              <>
                <NumberInput
                  label="Best day at most"
                  value={consistency.maxBestDayPct}
                  onChange={(v) => set('consistency', { ...consistency, maxBestDayPct: Number(v) || 0 })}
                  suffix="%"
                  min={1}
                  max={100}
                  decimalScale={2}
                />
                <Select
                  label="Of the"
                  value={consistency.of}
                  onChange={(v) => {
                    const of = (v ?? 'profit') as 'profit' | 'target';
                    // A share of the total profit changes every day: it can only delay a pass, never fail the account.
                    set('consistency', {
                      ...consistency,
                      of,
                      ...(of === 'profit' && consistency.onBreach === 'fail' && { onBreach: 'wait' as const }),
                    });
                  }}
                  allowDeselect={false}
                  data={[
                    { value: 'profit', label: 'Total profit' },
                    { value: 'target', label: 'Profit target' },
                  ]}
                />
                <BreachSelect
                  value={consistency.onBreach ?? 'wait'}
                  soft="wait"
                  softLabel="Delays the pass (soft)"
                  hardDisabled={consistency.of !== 'target'}
                  onChange={(v) => set('consistency', { ...consistency, onBreach: v })}
                />
                <Checkbox
                  label="Less than the share (the firm says “less than”)"
                  checked={consistency.strict ?? false}
                  onChange={(e) => set('consistency', { ...consistency, strict: e.currentTarget.checked })}
                  mt={{ base: 0, xs: 'xl' }}
                />
              </>
            )}
          </RuleBlock>

          <RuleBlock
            label="Minimum trading days"
            enabled={rules.minTradingDays !== null}
            onToggle={(on) => set('minTradingDays', on ? 5 : null)}
            testId="rule-min-days"
          >
            <NumberInput
              label="Days with a trade"
              value={rules.minTradingDays ?? ''}
              onChange={(v) => set('minTradingDays', v === '' ? null : Math.trunc(Number(v)))}
              min={1}
              allowDecimal={false}
            />
          </RuleBlock>

          <RuleBlock
            label="Minimum profit days"
            enabled={minProfitDays !== null}
            onToggle={(on) => set('minProfitDays', on ? { days: 5, minCents: 15_000 } : null)}
            testId="rule-profit-days"
          >
            {minProfitDays && (
              <>
                <NumberInput
                  label="Days"
                  value={minProfitDays.days}
                  onChange={(v) => set('minProfitDays', { ...minProfitDays, days: Math.trunc(Number(v)) || 0 })}
                  min={1}
                  allowDecimal={false}
                />
                <Money
                  label="Each with at least"
                  cents={minProfitDays.minCents}
                  onChange={(c) => set('minProfitDays', { ...minProfitDays, minCents: c ?? 0 })}
                />
              </>
            )}
          </RuleBlock>

          <RuleBlock
            label="Maximum position"
            enabled={maxPosition !== null}
            onToggle={(on) => set('maxPosition', on ? { contracts: 5 } : null)}
            testId="rule-max-position"
          >
            {maxPosition && (
              <>
                <NumberInput
                  label="Contracts held at once"
                  description="From the fills, per instrument; micros count at their ratio: 10 MNQ are 1 NQ."
                  value={maxPosition.contracts}
                  onChange={(v) => set('maxPosition', { ...maxPosition, contracts: Math.trunc(Number(v)) || 0 })}
                  min={1}
                  allowDecimal={false}
                />
                <BreachSelect
                  value={maxPosition.onBreach ?? 'close-trade'}
                  soft="close-trade"
                  softLabel="Costs the trade (soft)"
                  onChange={(v) => set('maxPosition', { ...maxPosition, onBreach: v })}
                />
              </>
            )}
          </RuleBlock>

          <RuleBlock
            label="Trading hours"
            enabled={tradingHours !== null}
            onToggle={(on) =>
              set(
                'tradingHours',
                on ? { flatBy: '16:10', reopenAt: '18:00', timeZone: 'America/New_York', noTradingWeekdays: [], noTradingDates: [] } : null,
              )
            }
            testId="rule-hours"
          >
            {tradingHours && (
              <>
                <TextInput
                  label="Flat by (HH:mm)"
                  placeholder="16:10"
                  value={tradingHours.flatBy ?? ''}
                  onChange={(e) => set('tradingHours', { ...tradingHours, flatBy: e.currentTarget.value.trim() || null })}
                />
                <TextInput
                  label="Trading again at (HH:mm)"
                  value={tradingHours.reopenAt}
                  onChange={(e) => set('tradingHours', { ...tradingHours, reopenAt: e.currentTarget.value.trim() })}
                />
                <TextInput
                  label="Time zone"
                  value={tradingHours.timeZone}
                  onChange={(e) => set('tradingHours', { ...tradingHours, timeZone: e.currentTarget.value.trim() })}
                />
                <MultiSelect
                  label="No trading on"
                  value={tradingHours.noTradingWeekdays.map(String)}
                  onChange={(v) => set('tradingHours', { ...tradingHours, noTradingWeekdays: v.map(Number) })}
                  data={DAY_NAMES.map((name, i) => ({ value: String(i), label: name }))}
                />
                <TextInput
                  label="No trading on these days"
                  description="yyyy-MM-dd, separated by commas"
                  value={tradingHours.noTradingDates.join(', ')}
                  onChange={(e) => set('tradingHours', { ...tradingHours, noTradingDates: e.currentTarget.value.split(/[,\s]+/).filter(Boolean) })}
                />
                <BreachSelect
                  value={tradingHours.onBreach ?? 'close-trade'}
                  soft="close-trade"
                  softLabel="Costs the trade (soft)"
                  onChange={(v) => set('tradingHours', { ...tradingHours, onBreach: v })}
                />
              </>
            )}
          </RuleBlock>

          {funded && (
            <RuleBlock
              label="Payout"
              enabled={payout !== null}
              onToggle={(on) => set('payout', on ? { minBalanceAboveStartCents: null } : null)}
              testId="rule-payout"
            >
              {payout && (
                <Money
                  label="Profit needed before a payout"
                  description="Leave empty for any profit."
                  cents={payout.minBalanceAboveStartCents}
                  onChange={(c) => set('payout', { minBalanceAboveStartCents: c })}
                />
              )}
            </RuleBlock>
          )}

          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="Count trades from"
              description="yyyy-MM-dd; after a reset, the day it started again"
              placeholder="All trades"
              value={startsOn}
              onChange={(e) => setStartsOn(e.currentTarget.value)}
              data-testid="prop-starts-on"
            />
            <Switch label="Show on the dashboard" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} mt={{ base: 0, xs: 'xl' }} />
          </SimpleGrid>

          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="prop-rules-save">
              Save Rules
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
