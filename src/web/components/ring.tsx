import type { ReactNode } from 'react';
import classes from './ring.module.css';

export interface RingProps {
  /** Outer size in px. */
  size: number;
  thickness: number;
  /** The share drawn, 0-100; null draws the empty track only. */
  value: number | null;
  /** A theme colour as Mantine names it ('teal.6'). */
  color: string;
  label?: ReactNode;
  'aria-hidden'?: boolean | 'true';
}

/**
 * A progress ring drawn as Mantine's RingProgress draws one section with round caps (same radius, track and
 * colours), without its code: RingProgress wraps every section in a floating tooltip, which brought Mantine's
 * Tooltip and floating-ui (~20 kB gzipped) to the first screen for two win-rate rings.
 */
export function Ring({ size, thickness, value, color, label, 'aria-hidden': ariaHidden }: RingProps) {
  const radius = (size * 0.9 - thickness * 2) / 2;
  const length = 2 * Math.PI * radius;
  const share = value === null ? 0 : Math.min(100, Math.max(0, value)) / 100;
  const circle = { cx: size / 2, cy: size / 2, r: radius, fill: 'none', strokeWidth: thickness };
  return (
    <div className={classes.root} data-ring style={{ width: size, height: size, minWidth: size, minHeight: size }} aria-hidden={ariaHidden}>
      <svg className={classes.svg} viewBox={`0 0 ${size} ${size}`} width={size} height={size}>
        <circle
          {...circle}
          className={classes.track}
          strokeDasharray={`${(1 - share) * length}, ${share * length}`}
          transform={`scale(1, -1) translate(0, -${size})`}
        />
        {value !== null && (
          <circle
            {...circle}
            stroke={`var(--mantine-color-${color.replace('.', '-')})`}
            strokeLinecap="round"
            strokeDasharray={`${share * length}, ${(1 - share) * length}`}
            strokeDashoffset={length}
          />
        )}
      </svg>
      {label && (
        <div className={classes.label} style={{ insetInline: thickness * 2 }}>
          {label}
        </div>
      )}
    </div>
  );
}
