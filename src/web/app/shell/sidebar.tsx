import { AppShell, Box, Divider, Stack, Text, VisuallyHidden, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import {
  IconBook2,
  IconBookmark,
  IconBrain,
  IconBrandDiscord,
  IconBrandX,
  IconCalendarEvent,
  IconClipboardCheck,
  IconChartBar,
  IconLayoutDashboard,
  IconListDetails,
  IconLogout,
  IconMoon,
  IconNotebook,
  IconNotes,
  IconSun,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { ScrollBox } from '../../components/scroll-box';
import { useAppConfig } from '../../lib/app-config';
import { savedViewHref } from '../../lib/pages';
import { savedViewsQuery } from '../../shared/api';
import { SidebarItem } from './sidebar-item';
import classes from './shell.module.css';

interface SidebarProps {
  collapsed: boolean;
  onNavigate: () => void;
  onLogout: () => void;
}

interface NavEntry {
  label: string;
  to: string;
  icon: ReactNode;
  testId: string;
}

/**
 * The pages, in order: the spec's four with Reports after the Trade Log, then the notes pages
 * (the trader's notes should not need Ctrl+K). A new page is one more entry here.
 */
const NAV: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', icon: <IconLayoutDashboard size={20} aria-hidden="true" />, testId: 'nav-dashboard' },
  { label: 'Trade Log', to: '/trade-log', icon: <IconListDetails size={20} aria-hidden="true" />, testId: 'nav-trade-log' },
  // An addition to the spec's list (DESIGN "Beyond the spec"): the reports a trader picks a journal for.
  { label: 'Reports', to: '/reports', icon: <IconChartBar size={20} aria-hidden="true" />, testId: 'nav-reports' },
  { label: 'Playbooks', to: '/playbooks', icon: <IconClipboardCheck size={20} aria-hidden="true" />, testId: 'nav-playbooks' },
  { label: 'Reflect', to: '/reflect', icon: <IconNotebook size={20} aria-hidden="true" />, testId: 'nav-reflect' },
  { label: 'ReflectAI', to: '/reflect-ai', icon: <IconBrain size={20} aria-hidden="true" />, testId: 'nav-reflect-ai' },
  { label: 'Notebook', to: '/notebook', icon: <IconNotes size={20} aria-hidden="true" />, testId: 'nav-notebook' },
  { label: 'Daily Journal', to: '/journal', icon: <IconCalendarEvent size={20} aria-hidden="true" />, testId: 'nav-journal' },
];

/** An entry is current on its own page and the pages under it ('/reflect' is not current on '/reflect-ai'). */
const isCurrent = (to: string, pathname: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));

export function Sidebar({ collapsed, onNavigate, onLogout }: SidebarProps) {
  const { pathname, search } = useLocation();
  const { data: savedViews } = useQuery(savedViewsQuery);
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  const { data: config } = useAppConfig();

  return (
    <>
      <AppShell.Section className={classes.brand} data-collapsed={collapsed || undefined}>
        <Box component={Link} to="/" className={classes.brandLink} aria-label="Edgebook dashboard" onClick={onNavigate}>
          <Logo size={28} withName={!collapsed} />
        </Box>
      </AppShell.Section>
      <AppShell.Section grow component={ScrollBox}>
        <Stack component="nav" aria-label="Main" gap={4} p="xs">
          {NAV.map((item) => (
            <Fragment key={item.to}>
              <SidebarItem
                kind="route"
                to={item.to}
                label={item.label}
                icon={item.icon}
                collapsed={collapsed}
                active={isCurrent(item.to, pathname)}
                testId={item.testId}
                onClick={onNavigate}
              />
              {/* The trader's saved report views, under Reports: each opens the Reports page with its filter. */}
              {item.to === '/reports' && !collapsed && savedViews && savedViews.length > 0 && (
                <Stack gap={2} pl="md" aria-label="Saved views" role="group" data-testid="nav-saved-views">
                  {savedViews.map((view) => (
                    <SidebarItem
                      key={view.id}
                      kind="route"
                      to={savedViewHref(view.filter)}
                      label={view.name}
                      icon={<IconBookmark size={16} aria-hidden="true" />}
                      collapsed={false}
                      active={pathname === '/reports' && search === (view.filter ? `?${view.filter}` : '')}
                      testId="nav-saved-view"
                      onClick={onNavigate}
                    />
                  ))}
                </Stack>
              )}
            </Fragment>
          ))}
        </Stack>
      </AppShell.Section>
      <AppShell.Section p="xs">
        <Divider mb="xs" />
        <Stack gap={4}>
          <SidebarItem
            kind="button"
            label={scheme === 'dark' ? 'Light Mode' : 'Dark Mode'}
            icon={scheme === 'dark' ? <IconSun size={20} aria-hidden="true" /> : <IconMoon size={20} aria-hidden="true" />}
            collapsed={collapsed}
            testId="theme-toggle"
            onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
          />
          {config?.links.community && (
            <SidebarItem
              kind="external"
              href={config.links.community}
              label="Join Community"
              icon={<IconBrandDiscord size={20} aria-hidden="true" />}
              collapsed={collapsed}
              testId="community-link"
            />
          )}
          {config?.links.social && (
            <SidebarItem
              kind="external"
              href={config.links.social}
              label="Follow Us"
              icon={<IconBrandX size={20} aria-hidden="true" />}
              collapsed={collapsed}
              testId="social-link"
            />
          )}
          <SidebarItem
            kind="external"
            href="/tutorials"
            label="Watch Tutorials"
            icon={<IconBook2 size={20} aria-hidden="true" />}
            collapsed={collapsed}
            testId="tutorials-link"
          />
          {collapsed ? (
            <VisuallyHidden data-testid="app-version">Version 1.0.2</VisuallyHidden>
          ) : (
            <Text size="xs" c="dimmed" px="sm" pt={4} data-testid="app-version">
              Version 1.0.2
            </Text>
          )}
          <SidebarItem
            kind="button"
            label="Logout"
            icon={<IconLogout size={20} aria-hidden="true" />}
            collapsed={collapsed}
            testId="logout-button"
            onClick={onLogout}
          />
        </Stack>
      </AppShell.Section>
    </>
  );
}
