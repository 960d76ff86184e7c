import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mentorImageUrl } from '../../domain/files/mentor-image-url';
import { MarkdownView } from './markdown-view';

const note =
  'Entry ![chart](</api/attachments/files/0d4c3a2e-1111-4222-8333-444455556666.png>) and ![site](https://x.test/b.png) ![bad](javascript:alert(1))';
const sources = (container: HTMLElement) => [...container.querySelectorAll('img')].map((img) => img.getAttribute('src'));

describe('MarkdownView', () => {
  it("shows a note's images at their own addresses, and a mentor's through their route; an unsafe address stays empty", () => {
    const own = render(
      <MantineProvider>
        <MarkdownView>{note}</MarkdownView>
      </MantineProvider>,
    );
    expect(sources(own.container)).toEqual(['/api/attachments/files/0d4c3a2e-1111-4222-8333-444455556666.png', 'https://x.test/b.png', null]);
    own.unmount();
    const mentor = render(
      <MantineProvider>
        <MarkdownView imageSrc={(src) => mentorImageUrl('t-1', src)}>{note}</MarkdownView>
      </MantineProvider>,
    );
    expect(sources(mentor.container)).toEqual([
      '/api/mentor/t-1/attachments/files/0d4c3a2e-1111-4222-8333-444455556666.png',
      'https://x.test/b.png',
      null,
    ]);
  });
});
