// Zulip's validate_domain (zerver/lib/domains.py): the syntax an allowed email domain must have.
// The caller lowercases first, so upper-case letters are already gone.
import { BadRequestError } from '../errors.ts';

/** The reason a domain is refused, or null when it is acceptable. */
function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (!label) return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** Trims and lowercases a domain, then checks it (Zulip's create_realm_domain). */
export function normaliseDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) throw new BadRequestError(`Invalid domain: ${problem}`);
  return domain;
}
