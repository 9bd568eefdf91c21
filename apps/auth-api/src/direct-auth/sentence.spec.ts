import { generateSentence, SENTENCE_COMBINATIONS, sentenceChoices } from './sentence';
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

describe('sentenceChoices', () => {
  it('offers the real phrase among three, the same three for one attempt every time, others for another', () => {
    const seed = Buffer.alloc(32, 7);
    const choices = sentenceChoices('Brave otter paints softly', seed);
    expect(choices).toHaveLength(3);
    expect(new Set(choices).size).toBe(3);
    expect(choices).toContain('Brave otter paints softly');
    expect(choices).toEqual([...choices].sort());
    expect(sentenceChoices('Brave otter paints softly', seed)).toEqual(choices);
    expect(sentenceChoices('Brave otter paints softly', Buffer.alloc(32, 8))).not.toEqual(choices);
  });
});
