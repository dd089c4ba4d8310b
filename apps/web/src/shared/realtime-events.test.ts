import { afterEach, describe, expect, it } from 'vitest';
import { realtimeEvents } from './realtime-events';

describe('realtime events', () => {
  afterEach(() => realtimeEvents.attachRoomJoiner(null));

  /** A socket stand-in that records which rooms are held. */
  function recordingJoiner() {
    const held = new Map<string, number>();
    const joiner = (room: string) => {
      held.set(room, (held.get(room) ?? 0) + 1);
      return () => {
        const left = (held.get(room) ?? 1) - 1;
        if (left > 0) held.set(room, left);
        else held.delete(room);
      };
    };
    return { held, joiner };
  }

  it('joins rooms asked for before a socket exists, and leaves them when the holder does', () => {
    const leave = realtimeEvents.joinRoom('ticket:1');
    const first = recordingJoiner();
    realtimeEvents.attachRoomJoiner(first.joiner);
    expect([...first.held.keys()]).toEqual(['ticket:1']);
    leave();
    expect(first.held.size).toBe(0);
    leave();
    expect(first.held.size).toBe(0);
  });

  it('moves held rooms to a new socket and leaves them there', () => {
    const leave = realtimeEvents.joinRoom('ticket:2');
    const first = recordingJoiner();
    realtimeEvents.attachRoomJoiner(first.joiner);
    realtimeEvents.attachRoomJoiner(null);
    const second = recordingJoiner();
    realtimeEvents.attachRoomJoiner(second.joiner);
    expect([...second.held.keys()]).toEqual(['ticket:2']);
    leave();
    expect(second.held.size).toBe(0);
  });

  it('tells room listeners when their room is confirmed, and only them', () => {
    const calls: string[] = [];
    const stopA = realtimeEvents.onRoomJoined('ticket:3', () => calls.push('a'));
    const stopB = realtimeEvents.onRoomJoined('ticket:4', () => calls.push('b'));
    realtimeEvents.publishRoomJoined('ticket:3');
    stopA();
    realtimeEvents.publishRoomJoined('ticket:3');
    realtimeEvents.publishRoomJoined('ticket:4');
    stopB();
    expect(calls).toEqual(['a', 'b']);
  });
});
