import { ActionIcon, Indicator } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ArmedTooltip } from '../../components/armed-tooltip';

/** The header's count of mentors' comments the trader has not seen (drawn only when there are some). */
export function MentorCommentsCount({ unseen }: { unseen: number }) {
  const label = `${unseen} new comment${unseen === 1 ? '' : 's'} from your mentors`;
  return (
    <ArmedTooltip label={label} withArrow>
      <Indicator label={unseen} size={16} offset={4} data-testid="mentor-comments-count">
        <ActionIcon component={Link} to="/mentor" variant="subtle" color="gray" size="lg" aria-label={label}>
          <IconMessageCircle size={20} aria-hidden="true" />
        </ActionIcon>
      </Indicator>
    </ArmedTooltip>
  );
}
