import { UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router';
import { ArmedTooltip } from '../../components/armed-tooltip';
import classes from './shell.module.css';

type SidebarItemProps = {
  label: string;
  icon: ReactNode;
  collapsed: boolean;
  active?: boolean;
  testId?: string;
  onClick?: () => void;
} & ({ kind: 'route'; to: string } | { kind: 'external'; href: string } | { kind: 'button' });

/**
 * One sidebar entry. Collapsed, it shows only its icon with a tooltip; the label stays in the accessible name,
 * so 'Logout' or 'Dark Mode' can be found the same way in both states.
 */
export function SidebarItem(props: SidebarItemProps) {
  const { label, icon, collapsed, active, testId, onClick } = props;
  const content = (
    <>
      <span className={classes.itemIcon}>{icon}</span>
      {collapsed ? <VisuallyHidden>{label}</VisuallyHidden> : <span className={classes.itemLabel}>{label}</span>}
    </>
  );
  const common = {
    className: classes.item,
    'data-active': active || undefined,
    'data-collapsed': collapsed || undefined,
    'data-testid': testId,
    onClick,
  };

  let element: ReactElement;
  if (props.kind === 'route') {
    element = (
      <UnstyledButton component={Link} to={props.to} aria-current={active ? 'page' : undefined} {...common}>
        {content}
      </UnstyledButton>
    );
  } else if (props.kind === 'external') {
    element = (
      <UnstyledButton component="a" href={props.href} target="_blank" rel="noopener noreferrer" {...common}>
        {content}
      </UnstyledButton>
    );
  } else {
    element = (
      <UnstyledButton type="button" {...common}>
        {content}
      </UnstyledButton>
    );
  }

  return (
    <ArmedTooltip label={label} position="right" disabled={!collapsed} withArrow>
      {element}
    </ArmedTooltip>
  );
}
