import { linkRows, type ChainHead, type ChainLink, type UnchainedContent } from '../events/chain';
import { cpuTask } from './task';

export interface ChainLinkInput {
  head: ChainHead;
  rows: UnchainedContent[];
}

/** Links a batch of committed rows to the chain's head (canonical JSON and SHA-256 of each, in order). */
export function chainLinks(input: ChainLinkInput): ChainLink[] {
  return linkRows(input.head, input.rows);
}

/** The audit chainer's hashing, in a thread of its own so that the requests' event loop never waits on it. */
export const chainLinksTask = cpuTask(import.meta.url, 'chainLinks', chainLinks);
