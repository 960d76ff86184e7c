import { TextInput } from '@mantine/core';

/** The email input of every auth form: required, of email type, labelled without an asterisk. */
export function EmailField({ value, onChange, testId }: { value: string; onChange: (value: string) => void; testId: string }) {
  return (
    <TextInput
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      required
      withAsterisk={false}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data-testid={testId}
    />
  );
}
