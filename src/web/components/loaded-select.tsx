import { Select, type SelectProps } from '@mantine/core';
import type { Ref } from 'react';

/** Mantine's Select of string values, in a module of its own for LazySelect to load on first use. */
export default function LoadedSelect(props: SelectProps<string> & { ref?: Ref<HTMLInputElement> }) {
  return <Select<string> {...props} />;
}
