import type { DataSource } from 'typeorm';
import { Avatar } from './avatar.entity.js';

/** `avatars`: each person's current profile picture, by version. */
export class AvatarRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(userId: string): Promise<Avatar | null> {
    return this.dataSource.getRepository(Avatar).findOneBy({ userId });
  }

  /** Makes `avatar` the person's picture; answers the object key of the one it replaced, if any. */
  replace(avatar: Pick<Avatar, 'userId' | 'version' | 'objectKey' | 'size'>): Promise<string | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(`SELECT object_key FROM avatars WHERE user_id = $1 FOR UPDATE`, [avatar.userId])) as Array<{ object_key: string }>;
      await manager.upsert(Avatar, avatar, ['userId']);
      return row?.object_key;
    });
  }
}
