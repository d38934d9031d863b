import { describe, expect, it } from 'vitest';
import { StreamedToolCalls, type ToolCallPiece } from '../../src/providers/openai/streamed-tool-calls.js';

function gather(pieces: readonly ToolCallPiece[]): unknown[] {
  const calls = new StreamedToolCalls();
  for (const piece of pieces) calls.add(piece);
  return calls.list();
}

const LISBON = { id: 'a', name: 'get_weather', arguments: '{"city":"Lisbon"}' };
const PORTO = { id: 'b', name: 'find_hotel', arguments: '{"city":"Porto"}' };

describe('tool calls gathered from a stream', () => {
  it('joins pieces by index: id and name first, arguments in parts, parallel calls interleaved', () => {
    expect(
      gather([
        { index: 0, id: 'a', function: { name: 'get_weather', arguments: '' } },
        { index: 1, id: 'b', function: { name: 'find_hotel', arguments: '{"ci' } },
        { index: 0, function: { arguments: '{"city":' } },
        { index: 1, function: { arguments: 'ty":"Porto"}' } },
        { index: 0, function: { arguments: '"Lisbon"}' } },
      ]),
    ).toEqual([LISBON, PORTO]);
  });

  it('takes an id or name sent again in every piece once, empty ones as absent, and a name in parts joined', () => {
    expect(
      gather([
        { index: 0, id: 'a', function: { name: 'get_weather', arguments: '{"city":' } },
        { index: 0, id: 'a', function: { name: 'get_weather', arguments: '"Lisbon"}' } },
      ]),
    ).toEqual([LISBON]);
    expect(
      gather([
        { index: 0, id: 'a', function: { name: 'get_', arguments: '' } },
        { index: 0, id: '', function: { name: 'weather', arguments: '{"city":"Lisbon"}' } },
        { index: 0, id: '', function: { name: '', arguments: '' } },
      ]),
    ).toEqual([LISBON]);
  });

  it('starts a new call when a piece brings a new id under an index already used (parallel calls all at index 0)', () => {
    expect(
      gather([
        { index: 0, id: 'a', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } },
        { index: 0, id: 'b', function: { name: 'find_hotel', arguments: '{"city":' } },
        { index: 0, function: { arguments: '"Porto"}' } },
      ]),
    ).toEqual([LISBON, PORTO]);
  });

  it('places pieces without an index by their id, else with the last call', () => {
    expect(
      gather([
        { id: 'a', function: { name: 'get_weather', arguments: '{"city":' } },
        { function: { arguments: '"Lisbon"}' } },
        { id: 'b', function: { name: 'find_hotel', arguments: '{"city":"Porto"}' } },
      ]),
    ).toEqual([LISBON, PORTO]);
  });
});
