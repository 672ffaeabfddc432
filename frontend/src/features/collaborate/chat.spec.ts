import { chatDraft } from './chat';

describe('chat box rules', () => {
  it('trims the message and counts what was typed against 500', () => {
    expect(chatDraft('  hello  ', false)).toEqual({ message: 'hello', counter: '9/500 characters', canSend: true });
  });

  it('sends nothing empty or blank', () => {
    expect(chatDraft('', false).canSend).toBe(false);
    expect(chatDraft('   \n ', false).canSend).toBe(false);
    expect(chatDraft('', false).counter).toBe('0/500 characters');
  });

  it('sends one message at a time', () => {
    expect(chatDraft('hi', true).canSend).toBe(false);
  });

  it('takes 500 characters, not 501', () => {
    expect(chatDraft('x'.repeat(500), false)).toMatchObject({ canSend: true, counter: '500/500 characters' });
    expect(chatDraft('x'.repeat(501), false).canSend).toBe(false);
    // Spaces around do not count against the message sent.
    expect(chatDraft(` ${'x'.repeat(500)} `, false).canSend).toBe(true);
  });
});
