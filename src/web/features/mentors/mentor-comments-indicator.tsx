import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { MentorView } from '../../../contract/mentors';
import { ArmedTooltip } from '../../components/armed-tooltip';
import { useTraderTime } from '../../shared/trader-clock';
import { newViewLines, notificationsLabel } from './notifications';

/**
 * The header's one count of what is new from the trader's mentors: comments not seen, and days a mentor viewed their
 * screens since the trader last looked (drawn only when there is something). Its words say which.
 */
export function MentorCommentsCount({ comments, views, unseenViews }: { comments: number; views: readonly MentorView[]; unseenViews: number }) {
  const clock = useTraderTime();
  const now = new Date();
  const lines = newViewLines(views, {
    today: clock.today(now),
    dayOf: (instant) => clock.format(instant, 'yyyy-MM-dd'),
    label: (instant) => clock.format(instant, 'MMM d'),
  });
  const label = notificationsLabel(comments, lines);
  const count = comments + unseenViews;
  return (
    <ArmedTooltip label={label} withArrow>
      <Indicator label={count} size={16} offset={4} data-testid="mentor-comments-count">
        <ActionIcon component={Link} to="/mentor" variant="subtle" color="gray" size="lg" aria-label={label}>
          <IconBell size={20} aria-hidden="true" />
        </ActionIcon>
      </Indicator>
    </ArmedTooltip>
  );
}
