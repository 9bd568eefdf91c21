import { createHash, randomInt } from 'node:crypto';
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

/**
 * Two other phrases for the approval page's choice of three: derived from `seed` (the attempt's
 * token hash), so every view of the page offers the same three and reloading tells nothing.
 * Returned with the real one, in alphabetical order.
 */
export function sentenceChoices(sentence: string, seed: Buffer): string[] {
  const choices = new Set([sentence]);
  for (let round = 0; choices.size < 3; round++) {
    const digest = createHash('sha256').update(seed).update(`decoy ${round}`).digest();
    const pick = (words: readonly string[], offset: number) => words[digest.readUInt32BE(offset) % words.length];
    const [adjective, noun, verb, adverb] = [pick(ADJECTIVES, 0), pick(NOUNS, 4), pick(VERBS, 8), pick(ADVERBS, 12)];
    choices.add(`${adjective[0].toUpperCase()}${adjective.slice(1)} ${noun} ${verb} ${adverb}`);
  }
  return [...choices].sort();
}
