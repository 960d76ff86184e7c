import { ActionIcon, Indicator } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ArmedTooltip } from '../../components/armed-tooltip';
import { mentorCommentsQuery } from './api';

/** The header's count of mentors' comments the trader has not seen; nothing at all while there are none. */
export function MentorCommentsIndicator() {
  const comments = useQuery(mentorCommentsQuery);
  const unseen = comments.data?.unseen ?? 0;
  if (unseen === 0) return null;
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
