import { generateSentence, SENTENCE_COMBINATIONS } from './sentence';
import { ADJECTIVES, ADVERBS, NOUNS, VERBS } from './sentence-words';

describe('generateSentence', () => {
  it('draws from at least 2^30 combinations of distinct words', () => {
    expect(SENTENCE_COMBINATIONS).toBeGreaterThanOrEqual(2 ** 30);
    for (const list of [ADJECTIVES, NOUNS, VERBS, ADVERBS]) expect(new Set(list).size).toBe(list.length);
  });

  it('reads as adjective, noun, verb, adverb', () => {
    const [adjective, noun, verb, adverb] = generateSentence().split(' ');
    expect(ADJECTIVES).toContain(adjective.toLowerCase());
    expect(NOUNS).toContain(noun);
    expect(VERBS).toContain(verb);
    expect(ADVERBS).toContain(adverb);
  });
});
