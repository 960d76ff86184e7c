import { secureHeaders } from 'hono/secure-headers';

/**
 * Security headers for every response. Scripts only from our own origin (no inline scripts); styles may be
 * inline because Mantine sets element styles at run time.
 */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Chart screenshots a trader links or attaches (TradingView snapshots and the like) live on other https hosts.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: false,
  });
