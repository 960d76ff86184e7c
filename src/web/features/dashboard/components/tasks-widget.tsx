import { ActionIcon, Badge, Button, Checkbox, Group, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { ArmedTooltip } from '../../../components/armed-tooltip';
import { IconChevronLeft, IconChevronRight, IconCircle, IconCircleCheckFilled, IconRepeat, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LazySelect } from '../../../components/lazy-select';
import { ScrollBox } from '../../../components/scroll-box';
import { addDays, formatDay } from '../../../../domain/dates';
import { deriveDailyTaskStatus, TASK_CATEGORIES, normalizeTaskTitle, type TaskCategory } from '../../../../domain/tasks';
import { tasksByDateQuery, type Task } from '../../../shared/api';
import { notifyError, useTaskMutations } from '../api';
import { useDashboard } from '../dashboard-context';

import classes from '../dashboard.module.css';
import { WidgetCard } from './widget-card';

const STATUS_BADGE = {
  profit: { color: 'teal', label: 'On track' },
  breakeven: { color: 'yellow', label: 'Half done' },
  loss: { color: 'red', label: 'Started' },
  none: { color: 'gray', label: 'Not started' },
} as const;

/**
 * The day's tasks; add with a trimmed title (the button is disabled otherwise, Enter
 * adds), categories, recurring, toggle by clicking the circle, delete, the spec's toasts, list capped at 460 px.
 */
export function TasksWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { today } = useDashboard();
  const [date, setDate] = useState(today);
  const tasks = useQuery(tasksByDateQuery(date));
  const { create, toggle, remove } = useTaskMutations(date);
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<TaskCategory>('Daily');
  const [recurring, setRecurring] = useState(false);

  useEffect(() => {
    if (tasks.isError) notifyError('Failed to load tasks');
  }, [tasks.isError]);

  const trimmed = normalizeTaskTitle(title);
  const add = () => {
    if (!trimmed || create.isPending) return;
    create.mutate({ title: trimmed, category, recurring }, { onSuccess: () => setTitle('') });
  };

  const list = tasks.data ?? [];
  const completed = list.filter((t) => t.completed).length;
  const status = deriveDailyTaskStatus({ completed, total: list.length });
  const dateLabel = date === today ? 'Today' : formatDay(date, 'EEE, MMM d');

  return (
    <WidgetCard widgetId={widgetId} anchor="trading-tasks" title="Trading Tasks" onRemove={onRemove}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => setDate((d) => addDays(d, -1))} aria-label="Previous day">
            <IconChevronLeft size={16} aria-hidden="true" />
          </ActionIcon>
          <Text size="sm" fw={600} miw={96} ta="center" data-testid="tasks-date">
            {dateLabel}
          </Text>
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => setDate((d) => addDays(d, 1))} aria-label="Next day">
            <IconChevronRight size={16} aria-hidden="true" />
          </ActionIcon>
          {date !== today && (
            <Button variant="subtle" size="compact-xs" onClick={() => setDate(today)}>
              Today
            </Button>
          )}
        </Group>
        <ArmedTooltip label={`${completed} of ${list.length} completed`} withArrow>
          <Badge color={STATUS_BADGE[status].color} variant="light" data-testid="tasks-status" data-status={status}>
            {completed}/{list.length} · {STATUS_BADGE[status].label}
          </Badge>
        </ArmedTooltip>
      </Group>

      <form
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            flex={1}
            size="sm"
            placeholder="Add a new task..."
            aria-label="New task"
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={200}
          />
          <Button type="submit" size="sm" disabled={!trimmed} loading={create.isPending}>
            Add
          </Button>
        </Group>
        <Group gap="sm" mt={6} mb="sm" wrap="nowrap">
          <LazySelect
            size="xs"
            aria-label="Category"
            data={[...TASK_CATEGORIES]}
            value={category}
            onChange={(v) => setCategory((v as TaskCategory | null) ?? 'Daily')}
            allowDeselect={false}
            w={160}
          />
          <Checkbox size="xs" label="Recurring" checked={recurring} onChange={(e) => setRecurring(e.currentTarget.checked)} />
        </Group>
      </form>

      {/* Task list max height 460 px. */}
      <ScrollBox maxHeight={460} data-testid="task-list">
        {tasks.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" role="status" aria-label="Loading tasks" />
          </Group>
        ) : tasks.isError ? (
          <Text size="sm" c="var(--mantine-color-error)" ta="center" p="md">
            Failed to load tasks
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" p="md">
            No tasks for this day.
          </Text>
        ) : (
          <Stack gap={4}>
            {list.map((task) => (
              <TaskRow key={task.id} task={task} onToggle={() => toggle.mutate(task)} onDelete={() => remove.mutate(task)} />
            ))}
          </Stack>
        )}
      </ScrollBox>
    </WidgetCard>
  );
}

function TaskRow({ task, onToggle, onDelete }: { task: Task; onToggle: () => void; onDelete: () => void }) {
  return (
    <Group className={classes.taskRow} gap="xs" wrap="nowrap" data-testid="task-row" data-completed={task.completed || undefined}>
      <UnstyledButton
        onClick={onToggle}
        className={classes.taskCircle}
        aria-label={task.completed ? `Mark "${task.title}" as not done` : `Mark "${task.title}" as done`}
        aria-pressed={task.completed}
      >
        {task.completed ? (
          <IconCircleCheckFilled size={20} color="var(--mantine-color-teal-6)" aria-hidden="true" />
        ) : (
          <IconCircle size={20} aria-hidden="true" />
        )}
      </UnstyledButton>
      <Stack gap={0} flex={1} miw={0}>
        <Text size="sm" td={task.completed ? 'line-through' : undefined} c={task.completed ? 'dimmed' : undefined} className={classes.taskTitle}>
          {task.title}
        </Text>
        <Group gap={4}>
          <Badge size="xs" variant="light" color="gray">
            {task.category}
          </Badge>
          {task.recurring && (
            <ArmedTooltip label="Recurring: comes back every day" withArrow>
              <Badge size="xs" variant="light" color="indigo" leftSection={<IconRepeat size={10} aria-hidden="true" />}>
                Recurring
              </Badge>
            </ArmedTooltip>
          )}
        </Group>
      </Stack>
      <ActionIcon variant="subtle" color="red" size="sm" onClick={onDelete} aria-label={`Delete "${task.title}"`}>
        <IconTrash size={14} aria-hidden="true" />
      </ActionIcon>
    </Group>
  );
}
