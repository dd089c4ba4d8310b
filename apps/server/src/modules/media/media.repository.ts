import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mediaFiles } from '../../db/schema';

export type MediaFileRow = typeof mediaFiles.$inferSelect;

export async function insertMediaFile(
  db: Executor,
  values: {
    id?: string;
    clientId: string;
    ownerRef: string;
    name: string;
    mime: string;
    size?: number;
    status: MediaFileRow['status'];
  },
): Promise<MediaFileRow> {
  const [row] = await db.insert(mediaFiles).values(values).returning();
  return row;
}

export async function findMediaFile(
  db: Executor,
  clientId: string,
  fileId: string,
): Promise<MediaFileRow | undefined> {
  const [row] = await db
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.clientId, clientId), eq(mediaFiles.id, fileId)));
  return row;
}

/**
 * The file with this id in whichever client holds it. Only for signed links, which name
 * the file alone: the caller must then check the signature, which binds the client.
 */
export async function findMediaFileForSignedLink(
  db: Executor,
  fileId: string,
): Promise<MediaFileRow | undefined> {
  const [row] = await db.select().from(mediaFiles).where(eq(mediaFiles.id, fileId));
  return row;
}

/** The complete files among `fileIds` that `ownerRef` uploaded in the client. */
export async function findReadyFilesOfOwner(
  db: Executor,
  clientId: string,
  ownerRef: string,
  fileIds: ReadonlyArray<string>,
): Promise<MediaFileRow[]> {
  if (fileIds.length === 0) return [];
  return db
    .select()
    .from(mediaFiles)
    .where(
      and(
        eq(mediaFiles.clientId, clientId),
        eq(mediaFiles.ownerRef, ownerRef),
        eq(mediaFiles.status, 'READY'),
        inArray(mediaFiles.id, [...fileIds]),
      ),
    );
}

/** Marks a pending upload complete; false when it was not pending any more. */
export async function markMediaFileReady(
  db: Executor,
  clientId: string,
  fileId: string,
  size: number,
): Promise<boolean> {
  const rows = await db
    .update(mediaFiles)
    .set({ status: 'READY', size })
    .where(
      and(eq(mediaFiles.clientId, clientId), eq(mediaFiles.id, fileId), eq(mediaFiles.status, 'PENDING')),
    )
    .returning({ id: mediaFiles.id });
  return rows.length > 0;
}

/**
 * Forgets upload links never used, in every client (a system job): a pending row has no
 * file, since a file is renamed into place only when its upload completes.
 */
export async function deleteStalePendingFiles(db: Executor, createdBefore: Date): Promise<number> {
  const rows = await db
    .delete(mediaFiles)
    .where(and(eq(mediaFiles.status, 'PENDING'), lt(mediaFiles.createdAt, createdBefore)))
    .returning({ id: mediaFiles.id });
  return rows.length;
}
