// Writes on the wire when a row is refused, on n8n 2.x's error shape: see writes-on-the-wire.cases.ts.
import { writesOnTheWireCases } from './writes-on-the-wire.cases';

writesOnTheWireCases(() => undefined);
