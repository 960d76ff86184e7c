import { Anchor, Button, Card, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EMPTY_REPORT_FILTER } from '../../../domain/reports/filter';
import { ApiError } from '../../lib/api';
import { toastError, toastSuccess } from '../../lib/toast';
import { queryKeys } from '../../shared/api';
import { ReportCard } from '../reports/report-card';
import { deletePlaybook, playbookReportQuery } from './api';
import { PlaybookEditor } from './playbook-editor';
import { PlaybookFigures } from './playbook-figures';
import { PlaybookImages } from './playbook-images';
import { ShareButton } from '../sharing';

/** /playbooks/:id: a playbook, its checklist and its report over all its trades. */
export function PlaybookPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const report = useQuery(playbookReportQuery(id, EMPTY_REPORT_FILTER));
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => deletePlaybook(id),
    onSuccess: async () => {
      toastSuccess('Playbook deleted');
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
        client.invalidateQueries({ queryKey: queryKeys.reports.all }),
      ]);
      navigate('/playbooks');
    },
    onError: (error) => toastError('Could not delete the playbook', error instanceof Error ? error.message : undefined),
  });

  const back = (
    <Anchor component={Link} to="/playbooks" size="sm" w="fit-content">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden="true" /> Playbooks
      </Group>
    </Anchor>
  );
  if (report.isLoading) return <Loader role="status" aria-label="Loading playbook" />;
  if (report.isError || !report.data) {
    const missing = report.error instanceof ApiError && report.error.status === 404;
    return (
      <Stack gap="sm" align="flex-start">
        {back}
        <Title order={1} size="h2">
          {missing ? 'Playbook not found' : 'Playbook'}
        </Title>
        <Text c="dimmed">{missing ? 'This playbook does not exist, or it was deleted.' : 'The playbook could not be loaded.'}</Text>
      </Stack>
    );
  }
  const { playbook } = report.data;
  return (
    <Stack gap="md" data-testid="playbook-page">
      <title>{`${playbook.name} · Edgebook`}</title>
      {back}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={1} size="h2" data-testid="playbook-title">
          {playbook.name}
        </Title>
        <Group gap="xs">
          <ShareButton kind="playbook" target={playbook.id} />
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden="true" />}
            onClick={() => setEditing(true)}
            data-testid="playbook-edit"
          >
            Edit
          </Button>
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            onClick={() => setDeleting(true)}
            data-testid="playbook-delete"
          >
            Delete
          </Button>
        </Group>
      </Group>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          {playbook.description && <Text style={{ whiteSpace: 'pre-wrap' }}>{playbook.description}</Text>}
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Entry criteria
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }} c={playbook.entry_criteria ? undefined : 'dimmed'}>
              {playbook.entry_criteria || 'None written yet.'}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Rules
            </Text>
            {playbook.rules.length === 0 ? (
              <Text c="dimmed">No rules yet.</Text>
            ) : (
              <List type="ordered" spacing={4} data-testid="playbook-rules">
                {playbook.rules.map((rule) => (
                  <List.Item key={rule.id}>{rule.text}</List.Item>
                ))}
              </List>
            )}
          </div>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="sm">
          Images
        </Title>
        <PlaybookImages playbookId={playbook.id} />
      </Card>
      <ReportCard title="Report" description={report.data.basis.computedFrom} busy={report.isPlaceholderData} testId="playbook-report">
        <PlaybookFigures report={report.data.report} />
      </ReportCard>
      <PlaybookEditor playbook={playbook} opened={editing} onClose={() => setEditing(false)} />
      <ConfirmDialog
        opened={deleting}
        title="Delete playbook"
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      >
        Delete “{playbook.name}” with its rules and images? Its {playbook.trades} trade{playbook.trades === 1 ? '' : 's'} stay in your journal,
        without a playbook.
      </ConfirmDialog>
    </Stack>
  );
}
