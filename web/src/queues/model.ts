// Posting queues as the graph gives them, and the documents the queues page sends.
import type { Provider } from '../../../schema/generated/graphql.ts';
export const weekdays = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export type Weekday = (typeof weekdays)[number];

export interface Slot {
  day: Weekday;
  /** HH:mm, in the queue's time zone. */
  time: string;
}

export interface Queue {
  id: string;
  name: string;
  timezone: string;
  slots: Slot[];
  connectionIds: string[];
  posts: { id: string }[];
}

export interface Account {
  id: string;
  provider: Provider;
  displayName: string;
  username: string;
}

/** What the queue form edits: a queue's fields, without its id (a new queue has none yet). */
export type QueueDraft = Pick<Queue, 'name' | 'timezone' | 'slots' | 'connectionIds'>;

export const QueuesQuery = `
  query Queues {
    queues(first: 100) { edges { node { id name timezone slots { day time } connectionIds posts { id } } } }
    socialAccounts(first: 100) { edges { node { id provider displayName username } } }
  }`;
export const CreateQueue = `
  mutation CreateQueue($name: String!, $timezone: String!, $slots: [SlotInput!]!, $connectionIds: [ID!]) {
    createQueue(name: $name, timezone: $timezone, slots: $slots, connectionIds: $connectionIds) { id }
  }`;
export const UpdateQueue = `
  mutation UpdateQueue($id: ID!, $name: String, $timezone: String, $slots: [SlotInput!], $connectionIds: [ID!]) {
    updateQueue(id: $id, name: $name, timezone: $timezone, slots: $slots, connectionIds: $connectionIds) { keptScheduledPosts queue { id } }
  }`;
export const DeleteQueue = `mutation DeleteQueue($id: ID!) { deleteQueue(id: $id) }`;
