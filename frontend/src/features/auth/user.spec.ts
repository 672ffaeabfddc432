import { avatarFallback, displayName } from './user';

describe('displayName', () => {
  it('joins first and last name, then falls back to email, then "User"', () => {
    expect(displayName({ firstName: 'Demo', lastName: 'User', email: 'demo@example.com' })).toBe('Demo User');
    expect(displayName({ firstName: 'Demo', lastName: null, email: null })).toBe('Demo');
    expect(displayName({ firstName: null, lastName: null, email: 'demo@example.com' })).toBe('demo@example.com');
    expect(displayName({ firstName: ' ', lastName: null, email: null })).toBe('User');
    expect(displayName(null)).toBe('User');
  });
});

describe('avatarFallback', () => {
  it('uses the first letter of first name, else of email, else "U"', () => {
    expect(avatarFallback({ firstName: 'demo', email: 'x@example.com' })).toBe('D');
    expect(avatarFallback({ firstName: null, email: 'zed@example.com' })).toBe('Z');
    expect(avatarFallback({ firstName: null, email: null })).toBe('U');
  });
});
