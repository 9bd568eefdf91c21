/**
 * Where the client keeps the access token (and the state and PKCE verifier of a login in
 * progress). Use an adapter over the platform's secure storage (Keychain, Keystore): see the
 * README for expo-secure-store and react-native-keychain. Values are short strings.
 */
export interface SecureStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** A SecureStorage in memory: for tests, and for apps that want no persistence at all. */
export class MemoryStorage implements SecureStorage {
  private readonly items = new Map<string, string>();

  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }

  async setItem(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }

  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }

  /** The keys held, for tests. */
  keys(): string[] {
    return [...this.items.keys()];
  }
}
