import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who uploaded a video, from UploadCompleted: told when its processing ends. */
@Entity({ name: 'videos' })
@Index('videos_timeline_idx', ['timelineId'])
export class VideoRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  timelineId: string;

  @Column('uuid')
  uploaderId: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  originalName: string;
}
