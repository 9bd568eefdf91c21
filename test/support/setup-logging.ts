import { quietDefaultLogger } from './test-logging';

// Runs in each test worker before its test file (jest.config.js, setupFiles).
quietDefaultLogger();
