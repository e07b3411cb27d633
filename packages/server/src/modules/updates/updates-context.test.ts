import { expect, it } from 'vitest';
import { errText } from './updates-context.js';

it("says an engine refusal in the engine's words, parsed by dockerode or not", () => {
  const parsed = Object.assign(new Error('(HTTP code 404) no such container - gone '), {
    json: { message: 'No such container: web' },
  });
  expect(errText(parsed)).toBe('No such container: web');
  // A pull's answer is a stream dockerode does not parse: its words are in the message.
  const unparsed = new Error(
    '(HTTP code 403) unexpected - This agent is read-only: actions are refused ',
  );
  expect(errText(unparsed)).toBe('This agent is read-only: actions are refused');
  expect(errText(new Error('connect ECONNREFUSED'))).toBe('connect ECONNREFUSED');
  expect(errText('plain')).toBe('plain');
});
