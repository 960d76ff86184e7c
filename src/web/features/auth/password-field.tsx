import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A password input whose show/hide toggle has an accessible name. */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }}
      {...props}
    />
  );
}
