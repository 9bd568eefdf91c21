import { randomInt } from 'node:crypto';
import { ADJECTIVES, ADVERBS, NOUNS, VERBS } from './sentence-words';

/**
 * A readable phrase such as "Brave otter paints softly", shown in the e-mail and on the link
 * page so the user can tell their attempt from one someone else started for their address.
 */
export function generateSentence(): string {
  const pick = (words: readonly string[]) => words[randomInt(words.length)];
  const [adjective, noun, verb, adverb] = [pick(ADJECTIVES), pick(NOUNS), pick(VERBS), pick(ADVERBS)];
  return `${adjective[0].toUpperCase()}${adjective.slice(1)} ${noun} ${verb} ${adverb}`;
}

export const SENTENCE_COMBINATIONS = ADJECTIVES.length * NOUNS.length * VERBS.length * ADVERBS.length;
