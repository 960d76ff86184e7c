import { Typography } from '@mantine/core';
import { useMemo } from 'react';
import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import classes from './markdown-view.module.css';

/**
 * A note's markdown as the trader reads it (react-markdown with rehype-sanitize). Nothing in a note can
 * run: raw HTML is not rendered (it shows as nothing, react-markdown's default without rehype-raw), the sanitizer
 * drops event handlers and scripts, and link and image addresses other than http(s), mailto and relative ones are
 * removed (javascript:, data:, vbscript:). Links open in a new tab without access to this one.
 */
const components: Components = {
  a: ({ node: _node, href, children, ...props }) => (
    <a {...props} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  // A task list's boxes are read-only marks; they say what they are.
  input: ({ node: _node, ...props }) =>
    props.type === 'checkbox' ? <input {...props} aria-label={props.checked ? 'Done' : 'Not done'} /> : <input {...props} />,
  img: ({ node: _node, src, alt, ...props }) => <img {...props} src={typeof src === 'string' ? src : undefined} alt={alt ?? ''} loading="lazy" />,
};

/** Only web, mail and same-origin addresses survive; everything else becomes an empty address. */
function urlTransform(url: string): string {
  const safe = defaultUrlTransform(url);
  return /^(https?:|mailto:|\/(?!\/)|#)/i.test(safe) ? safe : '';
}

/**
 * `imageSrc` rewrites each image's (already safe) address: a mentor reads the trader's uploaded images through a route
 * of their own.
 */
export function MarkdownView({ children, testId, imageSrc }: { children: string; testId?: string; imageSrc?: (src: string) => string }) {
  const shown = useMemo<Components>(
    () =>
      imageSrc
        ? {
            ...components,
            img: ({ node: _node, src, alt, ...props }) => (
              <img {...props} src={typeof src === 'string' && src ? imageSrc(src) : undefined} alt={alt ?? ''} loading="lazy" />
            ),
          }
        : components,
    [imageSrc],
  );
  return (
    <Typography className={classes.markdown} data-testid={testId}>
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={shown} urlTransform={urlTransform}>
        {children}
      </Markdown>
    </Typography>
  );
}
