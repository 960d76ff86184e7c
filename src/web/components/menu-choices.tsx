import { Menu } from '@mantine/core';
import type { LazyMenuProps } from './lazy-menu';

export interface MenuChoice {
  key: string;
  label: string;
  onClick: () => void;
}

/** LazyMenu's menu, loaded on first use; it mounts open, since the click that loaded it asked for it. */
export function MenuChoices({ target, choices, position }: Required<LazyMenuProps>) {
  return (
    <Menu position={position} withinPortal defaultOpened>
      <Menu.Target>{target({})}</Menu.Target>
      <Menu.Dropdown>
        {choices.map((choice) => (
          <Menu.Item key={choice.key} onClick={choice.onClick}>
            {choice.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
