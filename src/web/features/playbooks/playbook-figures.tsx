import { Anchor, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { PlaybookReport, PlaybooksReport } from '../../../contract/playbooks';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { pnlColor } from '../../lib/tone';
import { Money } from '../reports/report-card';
import classes from '../reports/reports.module.css';

type Report = PlaybookReport['report'];
type Figures = Report['followed'];

const percent = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);
const rText = (r: number | null) => (r === null ? '—' : formatR(r));
const rTone = (r: number | null) => (r === null ? 'dimmed' : pnlColor(r > 0 ? 1 : r < 0 ? -1 : 0));

function Figure({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={700} className={classes.numeric} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/**
 * A playbook's report: its trades, win rate, expectancy in $ and R, net and rule adherence, then
 * its trades that followed every rule against those that broke one. R is of the trades with a planned risk; the others
 * are counted and said.
 */
export function PlaybookFigures({ report }: { report: Report }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
        <Figure label="Trades" testId="playbook-trades">
          {report.trades}
        </Figure>
        <Figure label="Win rate" testId="playbook-win-rate">
          {percent(report.winRate)}
        </Figure>
        <Figure label="Net P&L" testId="playbook-net">
          <Money cents={report.netCents} size="lg" fw={700} />
        </Figure>
        <Figure label="Expectancy" testId="playbook-expectancy">
          <Money cents={report.expectancyCents} size="lg" fw={700} />
        </Figure>
        <Figure label="Expectancy (R)" testId="playbook-expectancy-r">
          <Text span inherit c={rTone(report.expectancyR)}>
            {rText(report.expectancyR)}
          </Text>
        </Figure>
        <Figure label="Rules followed" testId="playbook-adherence">
          {percent(report.adherence)}
        </Figure>
      </SimpleGrid>
      {report.tradesWithoutRisk > 0 && (
        <Text size="sm" c="dimmed" data-testid="playbook-without-risk">
          R is of {report.tradesWithRisk} trade{report.tradesWithRisk === 1 ? '' : 's'}; {describeWithoutRisk(report.tradesWithoutRisk)}.
        </Text>
      )}
      {report.rules === 0 ? (
        <Text size="sm" c="dimmed">
          This playbook has no rules yet: add some to see how following them pays.
        </Text>
      ) : (
        <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Results when the rules were followed and when one was broken">
          <Table verticalSpacing="xs" miw={420} data-testid="playbook-adherence-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Rules</Table.Th>
                <Table.Th ta="right">Trades</Table.Th>
                <Table.Th ta="right">Win rate</Table.Th>
                <Table.Th ta="right">Net P&L</Table.Th>
                <Table.Th ta="right">Expectancy</Table.Th>
                <Table.Th ta="right">Expectancy (R)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <AdherenceRow label="All followed" figures={report.followed} testId="playbook-followed" />
              <AdherenceRow label="One or more broken" figures={report.broken} testId="playbook-broken" />
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Stack>
  );
}

function AdherenceRow({ label, figures, testId }: { label: string; figures: Figures; testId: string }) {
  return (
    <Table.Tr data-testid={testId}>
      <Table.Td>{label}</Table.Td>
      <Table.Td ta="right" className={classes.numeric}>
        {figures.trades}
      </Table.Td>
      <Table.Td ta="right" className={classes.numeric}>
        {percent(figures.winRate)}
      </Table.Td>
      <Table.Td ta="right">
        <Money cents={figures.trades === 0 ? null : figures.netCents} />
      </Table.Td>
      <Table.Td ta="right">
        <Money cents={figures.expectancyCents} />
      </Table.Td>
      <Table.Td
        ta="right"
        className={classes.numeric}
        c={rTone(figures.expectancyR)}
        title={figures.tradesWithoutRisk > 0 ? describeWithoutRisk(figures.tradesWithoutRisk) : undefined}
      >
        {rText(figures.expectancyR)}
      </Table.Td>
    </Table.Tr>
  );
}

/** By Playbook: each playbook's figures over the reports' filter, a row each. */
export function PlaybooksTable({ report, linked = true }: { report: Pick<PlaybooksReport, 'playbooks'>; linked?: boolean }) {
  return (
    <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Figures by playbook">
      <Table verticalSpacing="xs" miw={720} data-testid="by-playbook-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Playbook</Table.Th>
            <Table.Th ta="right">Trades</Table.Th>
            <Table.Th ta="right">Win rate</Table.Th>
            <Table.Th ta="right">Net P&L</Table.Th>
            <Table.Th ta="right">Expectancy</Table.Th>
            <Table.Th ta="right">Expectancy (R)</Table.Th>
            <Table.Th ta="right">Rules followed</Table.Th>
            <Table.Th ta="right">Followed / broken net</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.playbooks.map(({ id, name, report: r }) => (
            <Table.Tr key={id} data-testid="by-playbook-row">
              <Table.Td>
                {linked ? (
                  <Anchor component={Link} to={`/playbooks/${id}`}>
                    {name}
                  </Anchor>
                ) : (
                  name
                )}
              </Table.Td>
              <Table.Td ta="right" className={classes.numeric}>
                {r.trades}
              </Table.Td>
              <Table.Td ta="right" className={classes.numeric}>
                {percent(r.winRate)}
              </Table.Td>
              <Table.Td ta="right">
                <Money cents={r.trades === 0 ? null : r.netCents} />
              </Table.Td>
              <Table.Td ta="right">
                <Money cents={r.expectancyCents} />
              </Table.Td>
              <Table.Td
                ta="right"
                className={classes.numeric}
                c={rTone(r.expectancyR)}
                title={r.tradesWithoutRisk > 0 ? describeWithoutRisk(r.tradesWithoutRisk) : undefined}
              >
                {rText(r.expectancyR)}
              </Table.Td>
              <Table.Td ta="right" className={classes.numeric}>
                {percent(r.adherence)}
              </Table.Td>
              <Table.Td ta="right">
                <Money cents={r.followed.trades === 0 ? null : r.followed.netCents} /> /{' '}
                <Money cents={r.broken.trades === 0 ? null : r.broken.netCents} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
