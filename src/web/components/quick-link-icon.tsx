import {
  IconBook,
  IconBuildingBank,
  IconCalendarEvent,
  IconChartCandle,
  IconLink,
  IconMessage,
  IconNews,
  IconPercentage,
  IconVideo,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';
import type { QUICK_LINK_ICONS } from '../../domain/links/quick-links';

const ICONS: Record<(typeof QUICK_LINK_ICONS)[number], Icon> = {
  link: IconLink,
  chart: IconChartCandle,
  calendar: IconCalendarEvent,
  news: IconNews,
  building: IconBuildingBank,
  percentage: IconPercentage,
  book: IconBook,
  video: IconVideo,
  message: IconMessage,
  globe: IconWorld,
};

export const QUICK_LINK_ICON_LABELS: Record<keyof typeof ICONS, string> = {
  link: 'Link',
  chart: 'Chart',
  calendar: 'Calendar',
  news: 'News',
  building: 'Exchange',
  percentage: 'Rates',
  book: 'Book',
  video: 'Video',
  message: 'Chat',
  globe: 'Web',
};

/** A quick link's icon by name; an unknown name (a legacy list's) shows the plain link icon. No remote favicons. */
export function QuickLinkIcon({ icon, size = 16 }: { icon: string | null; size?: number }) {
  const Component = (icon && ICONS[icon as keyof typeof ICONS]) || IconLink;
  return <Component size={size} aria-hidden="true" />;
}
