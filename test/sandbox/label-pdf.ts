// The shipping label the sandbox serves for an order: a small but well-formed one-page PDF (4 x 6 in, correct
// xref offsets), so clients that store, forward or open it get a real PDF, not just bytes named .pdf.
import type { StoredOrder } from './types';

const PAGE_WIDTH = 288;
const PAGE_HEIGHT = 432;

/** PDF string literal: ASCII only, with the three characters the syntax reserves escaped. */
function pdfText(value: string): string {
	const ascii = value.replace(/[^\x20-\x7e]/g, '?');
	return `(${ascii.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function contentStream(order: StoredOrder): string {
	const lines = [
		'SHIPPING LABEL (sandbox, not for shipping)',
		`Order: ${order.sku}`,
		`Vendor SKU: ${order.vendor_sku}`,
		`Purchased: ${order.purchased_at}`,
	];
	const shown = lines.map((line, i) => `${i === 0 ? '' : '0 -22 Td '}${pdfText(line)} Tj`).join('\n');
	return `BT\n/F1 11 Tf\n20 ${PAGE_HEIGHT - 40} Td\n${shown}\nET`;
}

export function shippingLabelPdf(order: StoredOrder): Buffer {
	const stream = contentStream(order);
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
		`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(Buffer.byteLength(pdf, 'latin1'));
		pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xrefAt = Buffer.byteLength(pdf, 'latin1');
	// Every xref entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, space + newline.
	const entries = ['0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)];
	pdf += `xref\n0 ${objects.length + 1}\n${entries.join('')}`;
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}
