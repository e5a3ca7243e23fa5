import type { Content, License, Payment, TermAxis } from './model.js';
import type { ProblemFn } from './findings.js';
import type { Frame } from './frame.js';
import { caseRule, checkTokens, splitTokens } from './tokens.js';
import { LEGAL_TYPES, REPORTING_TYPES } from './vocabulary.js';

// Stage 4 of the parse: the leaves. A leaf element (<permits>, <amount>, <terms>…) is read when it
// closes, into the container it sits in; a leaf that repeats keeps the first value and is reported.

type Leaf = Extract<Frame, { kind: 'leaf' }>;

export function closeLeaf(frame: Leaf, parent: Frame, problem: ProblemFn): void {
  if (parent.kind === 'license') licenseLeaf(frame, parent.license, problem);
  else if (parent.kind === 'payment') paymentLeaf(frame, parent.payment, parent.seen, problem);
  else if (parent.kind === 'content') contentLeaf(frame, parent.content, parent.seen, problem);
}

function licenseLeaf(frame: Leaf, license: License, problem: ProblemFn): void {
  const value = frame.text.trim();
  const { local, attrs } = frame;
  if (local === 'permits' || local === 'prohibits') {
    termsLeaf(frame, local, license, problem);
    return;
  }
  if (local === 'reporting') {
    const r = { type: attrs.type ?? null, profile: attrs.profile ?? null, endpoint: attrs.endpoint ?? null };
    if (!r.profile) problem('error', 'MISSING_PROFILE', '<reporting> needs a profile attribute');
    if (r.type !== null && !REPORTING_TYPES.has(r.type))
      problem('warning', 'UNKNOWN_REPORTING_TYPE', `reporting type "${r.type}" is not known`);
    license.reporting.push(r);
    return;
  }
  if (local === 'legal') {
    if (attrs.type !== undefined && !LEGAL_TYPES.has(attrs.type))
      problem('warning', 'UNKNOWN_LEGAL_TYPE', `legal type "${attrs.type}" is not known`);
    license.legal.push({ type: attrs.type ?? null, value });
  }
}

/** <permits> and <prohibits>: a token list on one axis (usage, user, geo). */
function termsLeaf(frame: Leaf, local: 'permits' | 'prohibits', license: License, problem: ProblemFn): void {
  let axis = frame.attrs.type as TermAxis | undefined;
  if (axis === undefined) {
    problem('error', 'MISSING_TYPE', `<${local}> has no type; read as type="usage"`);
    axis = 'usage';
  } else if (axis !== 'usage' && axis !== 'user' && axis !== 'geo') {
    problem('error', 'BAD_TYPE', `<${local} type="${String(axis)}"> is not usage, user or geo; ignored`);
    return;
  }
  const tokens = caseRule(axis, local, splitTokens(frame.text.trim(), local, problem), problem);
  checkTokens(axis, tokens, frame.ns, problem);
  const sets = local === 'permits' ? license.permits : license.prohibits;
  const existing = sets[axis];
  if (existing) {
    problem('error', 'DUPLICATE_TYPE', `a license has two <${local} type="${axis}">`);
    // Never widen: two permits lists intersect, two prohibits lists add up.
    sets[axis] =
      local === 'permits' ? existing.filter((t) => tokens.includes(t)) : [...new Set([...existing, ...tokens])];
  } else {
    sets[axis] = tokens;
  }
}

function paymentLeaf(frame: Leaf, p: Payment, seen: Set<string>, problem: ProblemFn): void {
  const value = frame.text.trim();
  const { local, attrs } = frame;
  if (seen.has(local)) problem('error', 'DUPLICATE_ELEMENT', `<payment> has more than one <${local}>`);
  seen.add(local);
  if (local === 'standard') p.standard ??= value;
  else if (local === 'custom') p.custom ??= value;
  else if (local === 'amount') {
    if (!attrs.currency) problem('error', 'MISSING_CURRENCY', '<amount> needs a currency attribute');
    else if (!/^[A-Z]{3}$/.test(attrs.currency))
      problem('warning', 'BAD_CURRENCY', `currency "${attrs.currency}" is not an ISO 4217 code`);
    if (!/^\d+(\.\d+)?$/.test(value)) problem('error', 'BAD_AMOUNT', `amount "${value}" is not a decimal number`);
    p.amount ??= { value, currency: attrs.currency ?? null };
  } else if (local === 'accepts') {
    if (!attrs.type) problem('error', 'MISSING_TYPE', '<accepts> needs a type attribute');
    p.accepts ??= { type: attrs.type ?? null, body: value };
  }
}

function contentLeaf(frame: Leaf, c: Content, seen: Set<string>, problem: ProblemFn): void {
  const value = frame.text.trim();
  const { local } = frame;
  if (local !== 'alternate' && seen.has(local))
    problem('error', 'DUPLICATE_ELEMENT', `<content> has more than one <${local}>`);
  seen.add(local);
  if (local === 'terms') c.terms ??= value;
  else if (local === 'copyright') c.copyright ??= value;
  else if (local === 'schema') c.schema ??= value;
  else if (local === 'alternate') c.alternates.push(value);
}
