import { Title } from '@mantine/core';

/** A page's document title and its one h1. */
export function PageHeader({ title, documentTitle }: { title: string; documentTitle?: string }) {
  return (
    <>
      <title>{`${documentTitle ?? title} · Edgebook`}</title>
      <Title order={1} size="h2" mb="md">
        {title}
      </Title>
    </>
  );
}
