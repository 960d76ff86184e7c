import { Typography } from '@mantine/core';
import { memo } from 'react';
import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import classes from './reflect-ai.module.css';

/**
 * A model's answer as markdown (tables, lists, code; react-markdown with rehype-sanitize). Nothing in an
 * answer can run: raw HTML is not rendered (no rehype-raw), the sanitizer drops scripts and event
 * handlers, and addresses other than http(s) and mailto are emptied (javascript:, data:, vbscript:). Images are not
 * loaded but shown as links: a model that read a planted instruction in a note could otherwise leak the trader's
 * figures in an image address the browser fetches by itself. Links open in a new tab without access to this one.
 */
const components: Components = {
  a: ({ node: _node, href, children, ...props }) =>
    href ? (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  // Wide tables scroll inside the answer instead of widening the page on a phone.
  table: ({ node: _node, ...props }) => (
    <div className={classes.tableScroll} tabIndex={0} role="region" aria-label="Table">
      <table {...props} />
    </div>
  ),
  pre: ({ node: _node, ...props }) => <pre {...props} tabIndex={0} />,
};

function urlTransform(url: string): string {
  const safe = defaultUrlTransform(url);
  return /^(https?:|mailto:)/i.test(safe) ? safe : '';
}

export const AnswerMarkdown = memo(function AnswerMarkdown({ text }: { text: string }) {
  return (
    <Typography className={classes.markdown} data-testid="answer-markdown">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components} urlTransform={urlTransform}>
        {text}
      </Markdown>
    </Typography>
  );
});
