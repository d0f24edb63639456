// Zulip's check_password_strength: at least PASSWORD_MIN_LENGTH characters and at least
// PASSWORD_MIN_GUESSES guesses by zxcvbn's estimate (the same figures register sends clients, which
// run zxcvbn themselves to show the strength meter).
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_GUESSES, PASSWORD_MIN_LENGTH } from '../limits.ts';

const estimator = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });

export function isStrongPassword(password: string): boolean {
  if ([...password].length < PASSWORD_MIN_LENGTH) return false;
  // zxcvbn's work grows with the length; past the longest password accepted, more adds nothing.
  return estimator.check(password.slice(0, PASSWORD_MAX_LENGTH)).guesses >= PASSWORD_MIN_GUESSES;
}
