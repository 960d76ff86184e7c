import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint step guards the walls between the domain, the server and the web; these cases prove each rule fires (and stays quiet on good code).
const eslint = new ESLint({ cwd: process.cwd() });

async function errors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.ruleId);
}

describe('architecture boundaries', () => {
  it('domain may not import Node APIs, server or web code, nor use browser or process globals', async () => {
    expect(await errors('src/domain/probe.ts', "import fs from 'node:fs';\nexport const a = fs;")).toContain('no-restricted-imports');
    expect(await errors('src/domain/probe.ts', "import { createApp } from '../server/app';\nexport const a = createApp;")).toContain(
      'no-restricted-imports',
    );
    expect(await errors('src/domain/probe.ts', "import { a } from '../web/main';\nexport const b = a;")).toContain('no-restricted-imports');
    expect(await errors('src/domain/probe.ts', "import { useState } from 'react';\nexport const a = useState;")).toContain('no-restricted-imports');
    expect(await errors('src/domain/probe.ts', 'export const a = window.location;')).toContain('no-restricted-globals');
    expect(await errors('src/domain/probe.ts', 'export const a = process.env;')).toContain('no-restricted-globals');
  });

  it('no domain module but the importers reads the importers; the importers take the vocabulary like everyone else', async () => {
    expect(await errors('src/domain/risk/probe.ts', "import { parseImport } from '../importers';\nexport const a = parseImport;")).toContain(
      'no-restricted-imports',
    );
    expect(
      await errors('src/domain/market/probe.ts', "import { checkTimeZone } from '../importers/zone-check';\nexport const a = checkTimeZone;"),
    ).toContain('no-restricted-imports');
    expect(await errors('src/domain/probe.ts', "import { readCsv } from './importers/csv';\nexport const a = readCsv;")).toContain(
      'no-restricted-imports',
    );
    // The domain's other rules still hold outside the importers.
    expect(await errors('src/domain/risk/probe.ts', "import fs from 'node:fs';\nexport const a = fs;")).toContain('no-restricted-imports');
    expect(await errors('src/domain/risk/probe.ts', "import { getPointValue } from '../instruments';\nexport const a = getPointValue;")).toEqual([]);
    expect(
      await errors(
        'src/domain/importers/probe.ts',
        "import { parseInstrument } from '../instruments';\nimport { marketDayOf } from '../market-time';\nimport { wallClockToInstant } from '../dates/clock';\nimport type { TradeSide } from '../trades/side';\nexport const a: [unknown, unknown, unknown, TradeSide | null] = [parseInstrument, marketDayOf, wallClockToInstant, null];",
      ),
    ).toEqual([]);
    expect(await errors('src/domain/importers/formats/probe.ts', "import { readCsv } from '../csv';\nexport const a = readCsv;")).toEqual([]);
    // ...and the importers stay pure too.
    expect(await errors('src/domain/importers/probe.ts', "import fs from 'node:fs';\nexport const a = fs;")).toContain('no-restricted-imports');
  });

  it('web may not import server code', async () => {
    expect(await errors('src/web/probe.ts', "import { createApp } from '../server/app';\nexport const a = createApp;")).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await errors('src/web/probe.ts', "import pg from 'pg';\nexport const a = pg;")).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('web takes only types from the contract (its zod schemas stay out of the browser bundle), and the contract imports neither server nor web code', async () => {
    expect(await errors('src/web/probe.ts', "import { trade } from '../contract/trades';\nexport const a = trade;")).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await errors('src/web/probe.ts', "import type { Trade } from '../contract/trades';\nexport const a: Trade | null = null;")).toEqual([]);
    expect(await errors('src/contract/probe.ts', "import { createApp } from '../server/app';\nexport const a = createApp;")).toContain(
      'no-restricted-imports',
    );
    expect(await errors('src/contract/probe.ts', "import { useState } from 'react';\nexport const a = useState;")).toContain('no-restricted-imports');
    expect(await errors('src/contract/probe.ts', "import { toCents } from '../domain/money';\nexport const a = toCents('1');")).toEqual([]);
  });

  it('allows the permitted directions', async () => {
    expect(await errors('src/domain/probe.ts', "import { toCents } from './money';\nexport const a = toCents('1');")).toEqual([]);
    expect(await errors('src/web/probe.ts', "import { toCents } from '../domain/money';\nexport const a = toCents('1');")).toEqual([]);
    expect(await errors('src/server/probe.ts', "import { toCents } from '../domain/money';\nexport const a = toCents('1');")).toEqual([]);
  });

  it('walls the server: a feature imports the core, never another feature; the core, http/ and db/ import no feature', async () => {
    const importFeature = "import { tradeFillsService } from '../trades/fills-service';\nexport const a = tradeFillsService;";
    expect(await errors('src/server/features/reports/probe.ts', importFeature)).toContain('import-x/no-restricted-paths');
    expect(
      await errors('src/server/features/chat/tools/probe.ts', "import { propService } from '../../prop/service';\nexport const a = propService;"),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await errors('src/server/core/probe.ts', "import { tradesService } from '../features/trades/service';\nexport const a = tradesService;"),
    ).toContain('import-x/no-restricted-paths');
    expect(await errors('src/server/http/probe.ts', "import { writeTrades } from '../core/trades/write';\nexport const a = writeTrades;")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await errors('src/server/db/probe.ts', "import { writeTrades } from '../core/trades/write';\nexport const a = writeTrades;")).toContain(
      'import-x/no-restricted-paths',
    );
    // The directions that are allowed: a feature's own files, the core, the database.
    expect(
      await errors(
        'src/server/features/trades/probe.ts',
        "import { tradeFillsService } from './fills-service';\nimport { writeTrades } from '../../core/trades/write';\nexport const a = [tradeFillsService, writeTrades];",
      ),
    ).toEqual([]);
    expect(await errors('src/server/core/probe.ts', "import { queryRows } from '../db/client';\nexport const a = queryRows;")).toEqual([]);
  });

  it('finds an import cycle between files', async () => {
    const dir = path.join(process.cwd(), 'src', 'server', 'core');
    const a = path.join(dir, 'zz-cycle-a.ts');
    const b = path.join(dir, 'zz-cycle-b.ts');
    fs.writeFileSync(a, "import { b } from './zz-cycle-b';\nexport const a = () => b();\n");
    fs.writeFileSync(b, "import { a } from './zz-cycle-a';\nexport const b = () => a();\n");
    try {
      const [result] = await new ESLint({ cwd: process.cwd() }).lintFiles([a]);
      expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
    } finally {
      fs.rmSync(a, { force: true });
      fs.rmSync(b, { force: true });
    }
  });
});
