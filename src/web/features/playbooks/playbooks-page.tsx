import { Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { playbooksQuery } from './api';
import { PlaybookEditor } from './playbook-editor';

/** /playbooks: the trader's playbooks, each with its rules and trades, and New playbook. */
export function PlaybooksPage() {
  const list = useQuery(playbooksQuery);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  return (
    <Stack gap="md" data-testid="playbooks-page">
      <Group justify="space-between" align="flex-start">
        <PageHeader title="Playbooks" />
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreating(true)} data-testid="playbook-new">
          New playbook
        </Button>
      </Group>
      <Text c="dimmed" size="sm" mt={-12}>
        Your setups with their entry criteria and a checklist of rules. Give a trade its playbook on the trade&apos;s page, tick the rules it
        followed, and see what following them is worth.
      </Text>
      {list.isLoading ? (
        <Loader role="status" aria-label="Loading playbooks" />
      ) : list.isError ? (
        <Text c="red">The playbooks could not be loaded.</Text>
      ) : list.data!.length === 0 ? (
        <Card withBorder radius="md" padding="lg">
          <Text c="dimmed" ta="center" data-testid="playbooks-empty">
            No playbooks yet. Create one for each setup you trade.
          </Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {list.data!.map((p) => (
            <Card key={p.id} withBorder radius="md" padding="md" data-testid="playbook-card">
              <Stack gap={6}>
                <Anchor component={Link} to={`/playbooks/${p.id}`} fw={700} size="lg">
                  {p.name}
                </Anchor>
                {p.description && (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {p.description}
                  </Text>
                )}
                <Group gap="xs">
                  <Badge variant="light" tt="none">
                    {p.rules.length} rule{p.rules.length === 1 ? '' : 's'}
                  </Badge>
                  <Badge variant="light" color="gray" tt="none">
                    {p.trades} trade{p.trades === 1 ? '' : 's'}
                  </Badge>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <PlaybookEditor playbook={null} opened={creating} onClose={() => setCreating(false)} onSaved={(saved) => navigate(`/playbooks/${saved.id}`)} />
    </Stack>
  );
}
