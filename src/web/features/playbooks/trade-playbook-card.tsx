import { Anchor, Badge, Card, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { partialMatchKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { TradePlaybookDto } from '../../../contract/playbooks';
import { toastError } from '../../lib/toast';
import { queryKeys } from '../../shared/api';
import { playbooksQuery, saveTradePlaybook, tradePlaybookQuery } from './api';

/**
 * A trade's playbook and its checklist, on the trade's page: each rule ticked is one the trade
 * followed; every rule ticked is Reflect's "followed the rules". Saved at each change, shown at once and put back if
 * the server refuses.
 */
export function TradePlaybookCard({ tradeId }: { tradeId: string }) {
  const client = useQueryClient();
  const playbooks = useQuery(playbooksQuery);
  const current = useQuery(tradePlaybookQuery(tradeId));
  const key = queryKeys.playbooks.trade(tradeId);
  const save = useMutation({
    mutationFn: (next: { playbook_id: string | null; ticked_rule_ids: string[] }) => saveTradePlaybook(tradeId, next),
    onMutate: async (next) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<TradePlaybookDto>(key);
      if (before) client.setQueryData<TradePlaybookDto>(key, { ...before, ...next });
      return { before };
    },
    onError: (error, _next, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      toastError('Could not save the playbook', error instanceof Error ? error.message : undefined);
    },
    onSuccess: (saved) => client.setQueryData(key, saved),
    // Reports and Reflect (under ['trades']) and the playbooks' counts read these.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.trades.all, predicate: (q) => !partialMatchKey(q.queryKey, queryKeys.playbooks.tradeAll) }),
        client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
      ]),
  });

  const data = current.data;
  const playbook = playbooks.data?.find((p) => p.id === data?.playbook_id) ?? null;
  const ticked = new Set(data?.ticked_rule_ids ?? []);
  const followed = playbook ? playbook.rules.filter((r) => ticked.has(r.id)).length : 0;

  return (
    <Card withBorder radius="md" padding="md" data-testid="trade-playbook">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4">
          Playbook
        </Title>
        {playbook && playbook.rules.length > 0 && (
          <Badge variant="dot" color={followed === playbook.rules.length ? 'teal' : 'orange'} tt="none" data-testid="trade-playbook-status">
            {followed === playbook.rules.length ? 'All rules followed' : `${followed} of ${playbook.rules.length} rules followed`}
          </Badge>
        )}
      </Group>
      <Stack gap="sm">
        <Select
          aria-label="Playbook"
          placeholder={playbooks.data?.length === 0 ? 'No playbooks yet' : 'No playbook'}
          data={(playbooks.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={data?.playbook_id ?? null}
          onChange={(value) => save.mutate({ playbook_id: value, ticked_rule_ids: [] })}
          clearable
          disabled={!data || !playbooks.data}
          maw={360}
          data-testid="trade-playbook-select"
        />
        {playbooks.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to="/playbooks" underline="always">
              Create a playbook
            </Anchor>{' '}
            to check this trade against its rules.
          </Text>
        )}
        {playbook &&
          (playbook.rules.length === 0 ? (
            <Text size="sm" c="dimmed">
              {playbook.name} has no rules yet.
            </Text>
          ) : (
            <Stack gap={6} data-testid="trade-playbook-rules">
              {playbook.rules.map((rule) => (
                <Checkbox
                  key={rule.id}
                  label={rule.text}
                  checked={ticked.has(rule.id)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    const next = playbook.rules.filter((r) => (r.id === rule.id ? on : ticked.has(r.id))).map((r) => r.id);
                    save.mutate({ playbook_id: playbook.id, ticked_rule_ids: next });
                  }}
                  data-testid="trade-playbook-rule"
                />
              ))}
            </Stack>
          ))}
        {playbook && (
          <Anchor component={Link} to={`/playbooks/${playbook.id}`} size="sm" w="fit-content">
            {playbook.name}&apos;s report
          </Anchor>
        )}
      </Stack>
    </Card>
  );
}
