// SPDX-License-Identifier: GPL-2.0-only
//
// Draws the page of ima-audit --html (format ima-audit-page/1) and of
// ima-attest verify --html (ima-attest-page/1) from the JSON in the page's
// application/json script blocks. Every string from the data
// reaches the page as a text node (el() below); no HTML is ever parsed
// from it. Verdicts are the tools': this file shows them, it never
// decides one. The entry table renders only the rows in view.
'use strict';

(function () {
	const ROW_H = 24;	/* px, the entry table's row height (CSS too) */
	const MAX_GROUP = 50;	/* failures listed per class before "more" */

	/* --- building the page: text nodes only -------------------------- */
	const SAFE_ATTR = /^(class|id|title|type|value|placeholder|role|colspan|for|scope|tabindex|spellcheck|autocomplete|open|hidden|aria-[a-z]+|data-[a-z-]+)$/;

	function el(tag, attrs, ...kids) {
		const e = document.createElement(tag);

		for (const [k, v] of Object.entries(attrs || {})) {
			if (v === null || v === undefined || v === false)
				continue;
			if (k === 'href') {
				if (typeof v !== 'string' || v[0] !== '#')
					throw new Error('a link may only point inside the page');
			} else if (!SAFE_ATTR.test(k)) {
				throw new Error('attribute not allowed: ' + k);
			}
			e.setAttribute(k, v === true ? '' : String(v));
		}
		for (const c of kids.flat(Infinity)) {
			if (c === null || c === undefined || c === false)
				continue;
			e.append(c instanceof Node ? c : String(c));
		}
		return e;
	}

	/*
	 * A name as the text report prints it: control characters, "\",
	 * line and paragraph separators and bidirectional controls (which
	 * can make a path read as another) as \xNN or \u{N}.
	 */
	function visible(s) {
		if (s === null || s === undefined)
			return '';
		return String(s).replace(/[\u0000-\u001f\u007f-\u009f\\\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g,
			(c) => {
				const n = c.codePointAt(0);
				return n < 0x100 ? '\\x' + n.toString(16).padStart(2, '0') :
					'\\u{' + n.toString(16) + '}';
			});
	}

	function num(n) {
		return typeof n === 'number' ? n.toLocaleString('en-US') : String(n);
	}

	function plural(n, one, many) {
		return num(n) + ' ' + (n === 1 ? one : (many || one + 's'));
	}

	function section(id, title, ...kids) {
		const s = el('section', { id: id, class: 'card' }, el('h2', null, title), ...kids);
		document.getElementById('sections').append(s);
		document.getElementById('nav').append(el('a', { href: '#' + id }, title));
		return s;
	}

	function kvTable(rows, cls) {
		return el('table', { class: 'kv ' + (cls || '') },
			el('tbody', null, rows.filter(Boolean).map(([k, v, key, state]) =>
				el('tr', { 'data-k': key, class: state ? 'st-' + state : null },
					el('th', { scope: 'row' }, k), el('td', null, v)))));
	}

	function load(id) {
		const s = document.getElementById(id);

		if (!s)
			throw new Error('the page has no data block ' + id);
		return JSON.parse(s.textContent);
	}

	function showVerdict(word, cls, lines) {
		const v = document.getElementById('verdict');
		const why = document.getElementById('verdict-why');

		v.className = 'verdict ' + cls;
		document.getElementById('verdict-word').textContent = word;
		why.replaceChildren(...lines.map((l) =>
			l instanceof Node ? l : el('span', { class: 'line' }, l)));
	}

	function broken(err) {
		document.documentElement.dataset.state = 'broken';
		showVerdict('NOT SHOWN', 'broken', [
			'The page could not be drawn, so it shows no verdict: ' +
			(err && err.message ? err.message : String(err)),
			'Read the text or JSON report instead.']);
		console.error('ima page: ' + (err && err.stack ? err.stack : err));
	}

	/* --- the audit ----------------------------------------------------- */
	const RESULT_WORD = { pass: 'PASS', fail: 'FAIL', malformed: 'MALFORMED' };
	const SIG_CLASSES = new Set(['bad-signature', 'unknown-key', 'signature-algorithm',
		'signature-malformed', 'signature-unsupported']);

	function renderAudit(d) {
		const r = d.report;
		const t = d.table;
		const byEntry = new Map();

		for (const f of r.failures) {
			if (f.entry === null)
				continue;
			if (!byEntry.has(f.entry))
				byEntry.set(f.entry, []);
			byEntry.get(f.entry).push(f);
		}
		document.title = 'IMA audit: ' + visible(d.input);
		document.getElementById('subtitle').textContent =
			visible(d.input) + ' \u2014 ' + plural(r.entries, 'entry', 'entries') +
			', ' + num(r.input.bytes) + ' bytes, ' + r.input.byte_order;
		auditVerdict(d, r);
		auditSummary(d, r);
		auditKernels(d, r, t);
		auditPcrs(d, r);
		auditPolicy(d, r);
		auditFailures(d, r);
		const table = auditEntries(d, r, t, byEntry);
		auditKeys(d, r, t, byEntry);
		rawData('raw', 'The report (JSON)', r);
		for (const b of document.querySelectorAll('[data-goto]'))
			b.addEventListener('click', () => table.show(b.dataset.goto));
	}

	function auditVerdict(d, r) {
		const word = RESULT_WORD[r.result];
		const lines = [];

		if (!word) {
			showVerdict('UNKNOWN', 'broken', ['The report gives no result this page knows: ' + visible(r.result)]);
			return;
		}
		lines.push(el('span', { class: 'line', id: 'failure-count', 'data-count': r.failure_count },
			'result:         ' + word + ' (' + plural(r.failure_count, 'failure') + ')'));
		if (r.error)
			lines.push('error:          offset ' + num(r.error.offset) + ': ' + visible(r.error.message));
		const classes = new Map();
		for (const f of r.failures)
			classes.set(f.class, (classes.get(f.class) || 0) + 1);
		if (classes.size)
			lines.push(el('span', { class: 'line reason' }, 'failures:       ' + [...classes]
				.sort((a, b) => b[1] - a[1]).map(([c, n]) => c + ' ' + num(n)).join(', ') +
				(r.failure_count > r.failures.length ? ', ' + num(r.failure_count - r.failures.length) + ' not listed' : '') +
				' (below: what to do, and the entries)'));
		for (const l of d.binding)
			lines.push(el('span', { class: 'line' + (l.startsWith('waived:') ? ' waived' : '') }, visible(l)));
		lines.push('boot_aggregate: ' + r.boot_aggregate.status +
			(r.boot_aggregate.algorithm ? ' (' + r.boot_aggregate.algorithm + ')' : ''));
		if (r.quote)
			lines.push('quote:          ' + (r.quote.tpm_generated ? 'TPM-generated quote' : 'NOT a TPM-generated quote') +
				'; nonce ' + r.quote.nonce + '; signature ' + r.quote.signature +
				'; pcrDigest ' + r.quote.pcr_digest + ' (reset ' + r.quote.reset_count +
				', restart ' + r.quote.restart_count + ', clock ' + num(r.quote.clock_ms) + ' ms)');
		if (d.table.listed < d.table.seen)
			lines.push('entry table:    the first ' + num(d.table.listed) + ' of ' + num(d.table.seen) + ' entries are listed below');
		showVerdict(word, r.result, lines);
	}

	function auditSummary(d, r) {
		const s = r.signatures;
		const tmpl = Object.entries(r.templates).map(([k, v]) => visible(k) + ' ' + num(v)).join(', ');
		const pol = r.policy;

		section('summary', 'Summary', kvTable([
			['input', visible(d.input) + ', ' + num(r.input.bytes) + ' bytes, ' + r.input.byte_order, 'input'],
			['entries', num(r.entries) + (tmpl ? ' (' + tmpl + ')' : ''), 'entries'],
			['violations', num(r.violations), 'violations', r.violations ? 'warn' : null],
			['template hash', num(r.template_hash.checked) + ' checked, ' + num(r.template_hash.failed) + ' failed',
				'template_hash', r.template_hash.failed ? 'fail' : 'ok'],
			['boot_aggregate', r.boot_aggregate.status, 'boot_aggregate',
				r.boot_aggregate.status === 'match' ? 'ok' :
				r.boot_aggregate.status === 'not-checked' ? 'warn' : 'fail'],
			['signatures', s.checked ?
				num(s.verified) + ' verified, ' + num(s.failed) + ' failed (' + num(s.unknown_key) +
				' unknown key), ' + num(s.unsigned) + ' unsigned' :
				'not checked (no --key); ' + num(s.not_checked + s.failed) + ' signed, ' + num(s.unsigned) + ' unsigned',
				'signatures', !s.checked ? 'warn' : s.failed ? 'fail' : 'ok'],
			['manifest', r.manifest ? num(r.manifest.paths) + ' paths; ' + num(r.manifest.match) + ' match, ' +
				num(r.manifest.unknown_path) + ' unknown path, ' + num(r.manifest.wrong_digest) + ' wrong digest, ' +
				num(r.manifest.no_digest_for_algorithm) + ' no digest of the algorithm' : 'not checked (no --manifest)',
				'manifest', !r.manifest ? null : r.manifest.unknown_path + r.manifest.wrong_digest +
				r.manifest.no_digest_for_algorithm ? 'fail' : 'ok'],
			['buffers', num(r.buffers.checked) + ' checked, ' + num(r.buffers.failed) + ' failed', 'buffers',
				r.buffers.failed ? 'fail' : null],
			['policy', pol ? 'entry ' + num(pol.entry) + ', ' + num(pol.bytes) + ' bytes' +
				(pol.expected === 'match' ? ', matches expected' : pol.expected === 'differs' ?
					', DIFFERS: ' + visible(pol.difference) : '') : 'none recorded', 'policy',
				pol && pol.expected === 'match' ? 'ok' : pol && pol.expected === 'differs' ? 'fail' : null],
		]));
	}

	function entryLink(n) {
		return el('button', { type: 'button', class: 'link', 'data-goto': '#' + n, title: 'show entry ' + n + ' in the table' },
			'entry ' + num(n));
	}

	function auditKernels(d, r, t) {
		const n = r.entries;
		const starts = d.kernels.map((k) => k.entry);
		const events = [];
		const bar = el('div', { class: 'timeline', role: 'img', 'aria-label': 'kernels over the list' });
		const hand = new Map(r.handovers.map((h) => [h.entry, h]));

		for (let i = 0; i < starts.length; i++) {
			const from = starts[i];
			const to = i + 1 < starts.length ? starts[i + 1] - 1 : n - 1;
			const seg = el('div', { class: 'kseg' + (from >= d.kernel_start && i === starts.length - 1 ? ' last' : ''),
				title: 'kernel ' + (i + 1) + ': entries ' + from + '\u2013' + to },
			'kernel ' + (i + 1));

			seg.style.flexGrow = String(Math.max(1, to - from + 1));
			bar.append(seg);
			events.push([from, el('li', { 'data-entry': from }, entryLink(from), ': ',
				i ? 'boot_aggregate of kernel ' + (i + 1) + ' (after a kexec)' : 'boot_aggregate: kernel 1 starts')]);
		}
		for (const row of t.rows) {
			if (row[4] === 'kexec_load')
				events.push([row[0], el('li', { 'data-entry': row[0] }, entryLink(row[0]),
					': kexec_load \u2014 a kernel image loaded for kexec')]);
		}
		for (const h of r.handovers) {
			events.push([h.entry, el('li', { 'data-entry': h.entry, class: h.ok ? 'st-ok' : 'st-fail' }, entryLink(h.entry),
				': kexec_execute \u2014 hands over ' + plural(h.count, 'entry', 'entries') + ', ' + num(h.size) +
				' of ' + num(h.segment) + ' segment bytes: ' + (h.ok ? 'fits' : 'FAILED'))]);
		}
		events.sort((a, b) => a[0] - b[0]);
		section('kernels', 'Kernels',
			el('p', null, plural(r.kernels, 'kernel') + ' in the list, ' +
				plural(r.handovers.length, 'kexec hand-over') + ', ' + plural(r.kexec_loads, 'kexec_load record') +
				(starts.length > 1 ? '; the verdict on the policy is about the kernel from entry ' + num(d.kernel_start) : '') + '.'),
			n ? bar : null,
			el('ol', { class: 'events' }, events.map((e) => e[1])),
			hand.size && !n ? el('p', null, 'no entries') : null);
	}

	function auditPcrs(d, r) {
		const banks = new Map();
		const quoted = !!r.quote;

		for (const p of r.pcrs) {
			if (!banks.has(p.bank))
				banks.set(p.bank, []);
			banks.get(p.bank).push(p);
		}
		const kids = [el('p', null, 'bound PCRs: ' + (r.binding.bound_pcrs.join(', ') || 'none') +
			(quoted ? ' (by the quote)' : ' (by the given values)') + '; the list extends ' +
			(r.binding.extended_pcrs.join(', ') || 'none') +
			(r.binding.ignored_pcrs.length ? '; waived (--ignore-pcr): ' + r.binding.ignored_pcrs.join(', ') : '') + '.')];
		for (const [bank, list] of banks) {
			const binds = bank !== 'sha1' || r.binding.sha1_binds;

			kids.push(el('h3', null, bank + (binds ? '' : ' (sha1: shown, binds nothing without --allow-sha1)')),
				el('table', { class: 'grid pcrs', 'data-bank': bank },
					el('thead', null, el('tr', null, ['PCR', 'entries', quoted ? 'quoted' : 'expected (given)',
						'replayed from the list', 'status', 'covered'].map((h) => el('th', { scope: 'col' }, h)))),
					el('tbody', null, list.map((p) => el('tr', {
						'data-pcr': p.pcr, 'data-bank': p.bank, 'data-status': p.status,
						class: p.status === 'match' && !p.uncovered ? 'st-ok' : p.status === 'not-checked' ? 'st-warn' : 'st-fail',
					}, el('td', null, String(p.pcr)), el('td', null, num(p.measurements)),
					el('td', { class: 'hex' }, p.expected === null ? 'not given' : p.expected),
					el('td', { class: 'hex' }, p.computed),
					el('td', { class: 'status' }, p.status),
					el('td', null, p.status !== 'match' ? '\u2014' : p.last_covered_entry === null ?
						'no entry (covers none of ' + num(p.measurements) + ')' :
						'through entry ' + num(p.last_covered_entry) + ' (' + num(p.covered) + ' of ' +
						num(p.measurements) + (p.uncovered ? '; ' + num(p.uncovered) + ' not covered' : '') + ')'))))));
		}
		section('pcrs', 'PCRs', kids);
	}

	/* Line diff (longest common subsequence); null when too large. */
	function diffLines(a, b) {
		const n = a.length, m = b.length;

		if ((n + 1) * (m + 1) > 4e6)
			return null;
		const w = m + 1;
		const L = new Uint32Array((n + 1) * w);
		for (let i = n - 1; i >= 0; i--)
			for (let j = m - 1; j >= 0; j--)
				L[i * w + j] = a[i] === b[j] ? L[(i + 1) * w + j + 1] + 1 :
					Math.max(L[(i + 1) * w + j], L[i * w + j + 1]);
		const out = [];
		let i = 0, j = 0;
		while (i < n || j < m) {
			if (i < n && j < m && a[i] === b[j]) {
				out.push([' ', a[i], i + 1, j + 1]);
				i++; j++;
			} else if (j < m && (i === n || L[i * w + j + 1] >= L[(i + 1) * w + j])) {
				out.push(['+', b[j], null, j + 1]);
				j++;
			} else {
				out.push(['-', a[i], i + 1, null]);
				i++;
			}
		}
		return out;
	}

	function splitLines(s) {
		const l = s.split('\n');
		if (l.length > 1 && l[l.length - 1] === '')
			l.pop();
		return l;
	}

	function auditPolicy(d, r) {
		const p = d.policy;
		const kids = [];

		if (p.recorded === null) {
			kids.push(el('p', { class: p.expected !== null ? 'st-fail' : null },
				'No policy is recorded in the list (bound, covered and of the last kernel).'));
		} else {
			kids.push(el('p', null, 'Recorded at entry ' + num(r.policy.entry) + ', ' + plural(r.policy.bytes, 'byte') +
				(r.policy.expected === 'match' ? '; equal to ' + visible(p.expected_name) + '.' :
					r.policy.expected === 'differs' ? '; DIFFERS from ' + visible(p.expected_name) + ': ' +
					visible(r.policy.difference) + '.' : '; no --expect-policy given.')));
		}
		if (p.recorded !== null && p.expected !== null && r.policy.expected === 'differs') {
			const diff = diffLines(splitLines(p.expected), splitLines(p.recorded));

			if (!diff) {
				kids.push(el('p', null, 'The policies are too long to compare line by line here.'));
			} else {
				kids.push(el('p', { class: 'legend' }, el('span', { class: 'd-del' }, '- only in ' + visible(p.expected_name)),
					' ', el('span', { class: 'd-add' }, '+ only in the recorded policy')));
				kids.push(el('div', { class: 'diff', id: 'policy-diff' }, diff.map(([op, text, ln, rn]) =>
					el('div', { class: op === '+' ? 'd-add' : op === '-' ? 'd-del' : 'd-same', 'data-op': op },
						el('span', { class: 'ln' }, ln === null ? '' : String(ln)),
						el('span', { class: 'ln' }, rn === null ? '' : String(rn)),
						el('span', { class: 'op' }, op), el('span', { class: 'tx' }, visible(text))))));
			}
		} else if (p.recorded !== null) {
			kids.push(el('div', { class: 'diff', id: 'policy-text' }, splitLines(p.recorded).map((l, i) =>
				el('div', { class: 'd-same' }, el('span', { class: 'ln' }, String(i + 1)), el('span', { class: 'tx' }, visible(l))))));
		}
		section('policy', 'Policy', kids);
	}

	function auditFailures(d, r) {
		const groups = new Map();
		const kids = [];

		for (const f of r.failures) {
			if (!groups.has(f.class))
				groups.set(f.class, []);
			groups.get(f.class).push(f);
		}
		if (!r.failure_count)
			kids.push(el('p', { class: 'st-ok' }, 'No failures.'));
		else
			kids.push(el('p', null, plural(r.failure_count, 'failure') + ' in ' + plural(groups.size, 'class', 'classes') +
				(r.failure_count > r.failures.length ? '; ' + num(r.failure_count - r.failures.length) +
					' more failures are counted but not listed (the counts below are of the listed ones)' : '') + '.'));
		for (const [cls, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
			const adv = Object.prototype.hasOwnProperty.call(d.advice, cls) ? d.advice[cls] : null;
			const entries = list.filter((f) => f.entry !== null).length;

			kids.push(el('details', { class: 'fgroup', 'data-class': cls, open: list.length <= 10 ? true : null },
				el('summary', null, el('span', { class: 'fclass' }, cls), ' ',
					el('span', { class: 'fcount', 'data-count': list.length }, String(list.length))),
				el('p', { class: 'advice' }, adv ? 'What to do: ' + adv : 'No advice is recorded for this class.'),
				entries ? el('button', { type: 'button', class: 'link', 'data-goto': 'class:' + cls },
					'show the ' + plural(entries, 'entry', 'entries') + ' in the table') : null,
				el('ul', { class: 'flist' }, list.slice(0, MAX_GROUP).map((f) =>
					el('li', { 'data-entry': f.entry === null ? '-' : f.entry },
						f.entry === null ? 'list: ' : [entryLink(f.entry), ' @' + f.offset + ': '],
						f.path !== null ? el('span', { class: 'path' }, visible(f.path) + ': ') : null,
						visible(f.reason), failureDetail(f)))),
				list.length > MAX_GROUP ? el('p', null, '\u2026 and ' + num(list.length - MAX_GROUP) +
					' more of this class (the table shows them all)') : null));
		}
		section('failures', 'Failures', kids);
	}

	/* what a failure names besides its reason: got and expected (JSON) */
	function failureDetail(f) {
		const parts = [];

		if (f.got !== null && f.got !== undefined)
			parts.push('got ' + visible(f.got));
		if (f.expected !== null && f.expected !== undefined)
			parts.push('expected ' + visible(f.expected));
		return parts.length ? el('span', { class: 'detail' }, ' (' + parts.join('; ') + ')') : null;
	}

	function auditEntries(d, r, t, byEntry) {
		const rows = t.rows;
		const V = t.verdicts;
		const tmpl = t.templates;
		let lower = null;	/* lower-cased paths, made on the first search */
		let shown = new Uint32Array(rows.length);
		let nshown = 0;
		let selected = -1;

		for (let i = 0; i < rows.length; i++)
			shown[i] = i;
		nshown = rows.length;

		const opt = (v, label) => el('option', { value: v }, label);
		const pcrs = [...new Set(rows.map((x) => x[2]))].sort((a, b) => a - b);
		const keys = [...new Set(rows.map((x) => x[7]).filter((k) => k !== ''))].sort();
		const classes = [...new Set(r.failures.filter((f) => f.entry !== null).map((f) => f.class))].sort();
		const fText = el('input', { type: 'search', id: 'f-text', placeholder: 'path or digest contains (#N: entry N)',
			spellcheck: 'false', autocomplete: 'off', 'aria-label': 'search' });
		const fTmpl = el('select', { id: 'f-template', 'aria-label': 'template' }, opt('', 'any template'),
			tmpl.map((name, i) => opt(String(i), visible(name))));
		const fPcr = el('select', { id: 'f-pcr', 'aria-label': 'PCR' }, opt('', 'any PCR'), pcrs.map((p) => opt(String(p), 'PCR ' + p)));
		const fVerdict = el('select', { id: 'f-verdict', 'aria-label': 'verdict' }, opt('', 'any verdict'),
			V.map((v, i) => opt(String(i), v)));
		const fKey = el('select', { id: 'f-key', 'aria-label': 'signature' }, opt('', 'any signature'), opt('-', 'unsigned'),
			keys.map((k) => opt(k, k === 'modsig' || k === 'unparsed' ? k : 'key id ' + k)));
		const fClass = el('select', { id: 'f-class', 'aria-label': 'failure class' }, opt('', 'any failure class'),
			classes.map((c) => opt(c, c)));
		const count = el('p', { id: 'entries-shown', 'aria-live': 'polite' });
		const head = el('div', { class: 'vrow vhead', role: 'row' },
			['#', 'PCR', 'template', 'name', 'digest', 'signature', 'verdict', 'failures'].map((h) =>
				el('span', { role: 'columnheader' }, h)));
		const spacer = el('div', { class: 'vspacer' });
		const body = el('div', { class: 'vbody', role: 'rowgroup' });
		const scroller = el('div', { class: 'vscroll', id: 'entries-table', role: 'table', tabindex: 0 }, head, spacer, body);
		const detail = el('div', { class: 'detail', id: 'entry-detail' });

		function failuresOf(idx) {
			return byEntry.get(idx) || [];
		}

		function filter() {
			const q = fText.value.trim();
			const tm = fTmpl.value === '' ? -1 : Number(fTmpl.value);
			const pc = fPcr.value === '' ? -1 : Number(fPcr.value);
			const vd = fVerdict.value === '' ? -1 : Number(fVerdict.value);
			const ky = fKey.value;
			const cl = fClass.value;
			const m = /^#(\d+)$/.exec(q);
			const ql = m ? null : q.toLowerCase();

			if (ql && !lower)
				lower = rows.map((x) => (x[4] === null ? '' : x[4].toLowerCase()) + '\u0000' + x[6]);
			nshown = 0;
			for (let i = 0; i < rows.length; i++) {
				const x = rows[i];

				if (m && x[0] !== Number(m[1]))
					continue;
				if (ql && !lower[i].includes(ql))
					continue;
				if (tm >= 0 && x[3] !== tm)
					continue;
				if (pc >= 0 && x[2] !== pc)
					continue;
				if (vd >= 0 && x[9] !== vd)
					continue;
				if (ky === '-' ? x[7] !== '' : ky !== '' && x[7] !== ky)
					continue;
				if (cl && !failuresOf(x[0]).some((f) => f.class === cl))
					continue;
				shown[nshown++] = i;
			}
			count.textContent = 'showing ' + num(nshown) + ' of ' + plural(rows.length, 'entry', 'entries') +
				(t.listed < t.seen ? ' (the first ' + num(t.listed) + ' of ' + num(t.seen) + ' are listed)' : '');
			count.dataset.shown = nshown;
			count.dataset.pending = '0';
			count.dataset.total = rows.length;
			spacer.style.height = (nshown * ROW_H) + 'px';
			scroller.scrollTop = 0;
			draw();
		}

		function cell(cls, text, title) {
			return el('span', { class: cls, title: title || null }, text);
		}

		function drawRow(i) {
			const x = rows[i];
			const f = failuresOf(x[0]);
			const name = x[4] === null ? '(no name field)' : visible(x[4]) +
				(x[5] > t.max_path ? ' [\u2026 ' + num(x[5] - t.max_path) + ' more bytes]' : '');
			const sig = x[7] === '' ? 'unsigned' : x[7];

			return el('div', { class: 'vrow v-' + V[x[9]] + (i === selected ? ' sel' : ''), role: 'row',
				'data-index': x[0], 'data-row': i },
			cell('c-idx', String(x[0])), cell('c-pcr', String(x[2])),
			cell('c-tmpl', visible(tmpl[x[3]])), cell('c-path', name, name),
			cell('c-digest hex', x[6] || '\u2014', x[6] || null), cell('c-sig', sig),
			cell('c-verdict', V[x[9]] + (x[8] ? ' (violation)' : '')),
			cell('c-fail', f.map((y) => y.class).join(', ')));
		}

		function draw() {
			const top = Math.max(0, scroller.scrollTop - head.offsetHeight);
			const first = Math.max(0, Math.floor(top / ROW_H) - 10);
			const last = Math.min(nshown, first + Math.ceil(scroller.clientHeight / ROW_H) + 20);
			const out = [];

			for (let k = first; k < last; k++)
				out.push(drawRow(shown[k]));
			body.style.transform = 'translateY(' + (first * ROW_H) + 'px)';
			body.replaceChildren(...out);
		}

		function showDetail(i) {
			const x = rows[i];
			const f = failuresOf(x[0]);

			selected = i;
			detail.replaceChildren(el('h3', null, 'Entry ' + num(x[0])), kvTable([
				['byte offset', num(x[1])], ['PCR', String(x[2])], ['template', visible(tmpl[x[3]])],
				['name', x[4] === null ? '(no name field)' : visible(x[4]) +
					(x[5] > t.max_path ? ' [\u2026 ' + num(x[5] - t.max_path) + ' more bytes not shown]' : '')],
				['digest', x[6] || '(none)'],
				['signature', x[7] === '' ? 'unsigned' : x[7] === 'modsig' ? 'appended (modsig)' :
					x[7] === 'unparsed' ? 'a signature field that does not parse' : 'key id ' + x[7]],
				['violation', x[8] ? 'yes: the kernel could not measure it (0x00 template digest)' : 'no'],
				['verdict', V[x[9]], 'verdict', V[x[9]] === 'ok' ? 'ok' : V[x[9]] === 'fail' ? 'fail' : 'warn'],
			]), f.length ? el('ul', { class: 'flist' }, f.map((y) => el('li', null, el('span', { class: 'fclass' }, y.class),
				': ' + visible(y.reason)))) : el('p', null, 'No failure names this entry.'));
			draw();
		}

		scroller.addEventListener('scroll', () => requestAnimationFrame(draw), { passive: true });
		scroller.addEventListener('click', (ev) => {
			const rowEl = ev.target.closest('.vrow[data-row]');
			if (rowEl)
				showDetail(Number(rowEl.dataset.row));
		});
		let timer = 0;
		fText.addEventListener('input', () => {
			clearTimeout(timer);
			count.dataset.pending = '1';
			timer = setTimeout(filter, 120);
		});
		for (const s of [fTmpl, fPcr, fVerdict, fKey, fClass])
			s.addEventListener('change', filter);

		const counts = new Array(V.length).fill(0);
		for (const x of rows)
			counts[x[9]]++;
		section('entries', 'Entries',
			el('p', { class: 'legend' }, 'verdict of each entry: ', V.map((v, i) =>
				el('span', { class: 'pill v-' + v, 'data-verdict': v, 'data-count': counts[i] }, v + ' ' + num(counts[i])))),
			el('p', { class: 'help' }, 'ok: bound, covered and no failure names it; fail: a failure names it; ' +
				'waived: on a PCR waived with --ignore-pcr, or after the covered prefix with --allow-uncovered; ' +
				'unproven: not attested (its PCR matched no prefix, the quote failed, or it is after the covered ' +
				'prefix) or not known (the audit is incomplete).'),
			el('div', { class: 'filters' }, fText, fTmpl, fPcr, fVerdict, fKey, fClass), count, scroller, detail);
		filter();
		return {
			show(what) {
				fTmpl.value = fPcr.value = fVerdict.value = fKey.value = fClass.value = '';
				if (what.startsWith('class:')) {
					fText.value = '';
					fClass.value = what.slice(6);
				} else {
					fText.value = what;
				}
				filter();
				if (nshown === 1)
					showDetail(shown[0]);
				document.getElementById('entries').scrollIntoView();
			},
		};
	}

	function auditKeys(d, r, t, byEntry) {
		const per = new Map();
		const given = new Map(d.keys.map((k) => [k.keyid, k.file]));

		for (const x of t.rows) {
			const k = x[7] === '' ? 'unsigned' : x[7];
			if (!per.has(k))
				per.set(k, { n: 0, failed: 0 });
			const p = per.get(k);
			p.n++;
			if ((byEntry.get(x[0]) || []).some((f) => SIG_CLASSES.has(f.class)))
				p.failed++;
		}
		const s = r.signatures;
		section('keys', 'Signatures by key',
			el('p', null, s.checked ? num(s.verified) + ' verified, ' + num(s.failed) + ' failed (' + num(s.unknown_key) +
				' unknown key), ' + num(s.unsigned) + ' unsigned file entries; ' + plural(d.keys.length, 'key') + ' given.' :
				'Signatures not checked (no --key): a key id below says who claims to have signed, not that anyone did.'),
			el('table', { class: 'grid keys' },
				el('thead', null, el('tr', null, ['key id', 'entries', 'with a signature failure', 'key given'].map((h) =>
					el('th', { scope: 'col' }, h)))),
				el('tbody', null, [...per].sort((a, b) => b[1].n - a[1].n).map(([k, p]) =>
					el('tr', { 'data-key': k, class: k === 'unsigned' ? null : p.failed ? 'st-fail' : given.has(k) ? 'st-ok' : 'st-warn' },
						el('td', { class: 'hex' }, k), el('td', null, num(p.n)), el('td', null, num(p.failed)),
						el('td', null, k === 'unsigned' ? '' : given.has(k) ? visible(given.get(k)) :
							k === 'modsig' ? '(PKCS#7: the signer is in the signature)' : 'no'))))));
	}

	function rawData(id, title, obj) {
		const pre = el('pre', { class: 'raw' });
		const det = el('details', null, el('summary', null, 'show'), pre);

		det.addEventListener('toggle', () => {
			if (det.open && !pre.firstChild)
				pre.textContent = JSON.stringify(obj, null, 1);
		});
		section(id, title, det);
	}

	/* --- ima-attest ---------------------------------------------------- */
	function renderAttest(d) {
		const v = d.verify;
		const word = v ? (v.result === 'pass' ? 'PASS' : v.result === 'fail' ? 'FAIL' : null) : null;

		document.title = 'IMA attestation';
		document.getElementById('title').textContent = 'IMA attestation';
		document.getElementById('subtitle').textContent = 'what a remote verifier proved about one boot';
		if (!word) {
			showVerdict('UNKNOWN', 'broken', ['The data gives no result this page knows.']);
			return;
		}
		showVerdict(word, v.result, [
			el('span', { class: 'line', id: 'failure-count', 'data-count': v.reasons.length },
				'result: ' + word + ' (' + plural(v.reasons.length, 'reason') + ')'),
			...v.proven.map((p) => el('span', { class: 'line' }, 'proven: ' + visible(p))),
			...v.reasons.map((p) => el('span', { class: 'line reason' }, 'reason: ' + visible(p)))]);
		const e = d.enrollment;
		section('enrollment', 'Enrollment', e ? kvTable([
			...e.lines.map((l, i) => [visible(l.check), (l.pass ? 'PASS' : 'FAIL') + (l.text ? ': ' + visible(l.text) : ''),
				'enroll-' + i, l.pass ? 'ok' : 'fail']),
			...e.reasons.map((x, i) => ['reason', visible(x), 'enroll-reason-' + i, 'fail']),
			e.boot !== null ? ['boot', visible(e.boot), 'boot'] : null,
		]) : el('p', { class: 'st-fail' }, 'No enrollment record: no AK is trusted.'));
		section('quote', 'Quote', v.quote ? kvTable([
			['by the enrolled AK', v.quote.checked ? (v.quote.signature ? 'signature verified' : 'signature BAD') : 'not checked',
				'q-sig', v.quote.signature ? 'ok' : 'fail'],
			['nonce', v.quote.nonce ? 'matches' : 'MISMATCH', 'q-nonce', v.quote.nonce ? 'ok' : 'fail'],
			['pcrDigest', v.quote.pcr_digest ? 'matches the quoted values' : 'MISMATCH', 'q-digest', v.quote.pcr_digest ? 'ok' : 'fail'],
			['reset / restart / clock', v.quote.reset_count + ' / ' + v.quote.restart_count + ' / ' + num(v.quote.clock_ms) + ' ms', 'q-clock'],
		]) : el('p', { class: 'st-fail' }, 'The quote was not checked (no enrolled AK).'));
		const ev = d.eventlog;
		const evKids = [];
		if (!ev || ev.error !== null) {
			evKids.push(el('p', { class: 'st-fail' }, ev ? 'The firmware event log does not parse: ' + visible(ev.error) :
				'No firmware event log.'));
		} else {
			evKids.push(el('p', null, plural(ev.events, 'event') + ' in banks ' + ev.banks.join(', ') + '.'));
			for (const b of ev.banks) {
				evKids.push(el('h3', null, b), el('table', { class: 'grid pcrs', 'data-bank': b },
					el('thead', null, el('tr', null, ['PCR', 'replayed from the log', 'quoted', 'status'].map((h) =>
						el('th', { scope: 'col' }, h)))),
					el('tbody', null, ev.pcrs.filter((p) => p.bank === b).map((p) => el('tr', {
						'data-pcr': p.pcr, 'data-bank': b, 'data-status': p.status,
						class: p.status === 'match' ? 'st-ok' : p.status === 'not-compared' ? 'st-warn' : 'st-fail' },
					el('td', null, String(p.pcr)), el('td', { class: 'hex' }, p.replayed),
					el('td', { class: 'hex' }, p.quoted === null ? 'not quoted' : p.quoted),
					el('td', { class: 'status' }, p.status))))));
			}
		}
		if (v.boot_aggregate)
			evKids.push(kvTable([['boot_aggregate from PCRs 0-9', v.boot_aggregate, 'boot-aggregate'],
				['the list\u2019s first entry', v.list_aggregate === null ? 'not compared' : v.list_aggregate,
					'list-aggregate', v.list_aggregate === null ? 'warn' : v.list_aggregate === v.boot_aggregate ? 'ok' : 'fail']]));
		section('eventlog', 'Firmware event log', evKids);
		const rounds = document.getElementById('ima-rounds') ? load('ima-rounds') : null;
		if (rounds !== null) {
			if (!Array.isArray(rounds) || !rounds.every((x) => x && typeof x.name === 'string' &&
				typeof x.pass === 'boolean' && Array.isArray(x.lines)))
				throw new Error('the polling rounds record is not a list of rounds');
			section('rounds', 'Polling rounds', el('table', { class: 'grid rounds' },
				el('thead', null, el('tr', null, ['round', 'result', 'entries verified', 'left for the next round', 'next entry', 'what it says'].map((h) =>
					el('th', { scope: 'col' }, h)))),
				el('tbody', null, rounds.map((x, i) => el('tr', { 'data-round': i, class: x.pass ? 'st-ok' : 'st-fail' },
					el('td', null, visible(x.name)), el('td', { class: 'status' }, x.pass ? 'PASS' : 'FAIL'),
					el('td', null, typeof x.verified === 'number' ? num(x.verified) : ''),
					el('td', null, typeof x.uncovered === 'number' ? num(x.uncovered) : ''),
					el('td', null, typeof x.next_entry === 'number' ? num(x.next_entry) : ''),
					el('td', null, x.lines.map((l) => el('div', null, visible(l)))))))));
		}
		rawData('raw', 'The data (JSON)', d);
	}

	function main() {
		try {
			const d = load('ima-data');

			if (d.format === 'ima-audit-page/1')
				renderAudit(d);
			else if (d.format === 'ima-attest-page/1')
				renderAttest(d);
			else
				throw new Error('unknown data format ' + visible(d.format));
			document.documentElement.dataset.state = 'rendered';
			performance.mark('ima-rendered');
		} catch (e) {
			broken(e);
		}
	}

	main();
}());
