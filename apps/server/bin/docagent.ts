#!/usr/bin/env node
import { main } from '../src/cli/main.ts';

await main(process.argv.slice(2));
