import { useStorageUsage } from '../api/get-storage-usage';
import { formatBytes } from '../lib/bytes';
import './storage-usage.css';

/**
 * How much of the person's storage quota their videos and images take (originals and what
 * processing made of them), and what is left for new uploads. Nothing while it loads or when it
 * cannot be read: it is information, not a gate (the server refuses what does not fit).
 */
export function StorageUsage({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { data } = useStorageUsage();
  if (!data || !data.quotaBytes) return null;
  const { usedBytes, reservedBytes, quotaBytes, remainingBytes } = data;
  const taken = Math.min(quotaBytes, usedBytes + reservedBytes);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="card storage-usage" aria-labelledby="storage-usage-title">
      <Heading id="storage-usage-title" className="storage-usage__title">
        Storage
      </Heading>
      <meter
        className="storage-usage__meter"
        min={0}
        max={quotaBytes}
        low={quotaBytes * 0.8}
        high={quotaBytes * 0.95}
        optimum={0}
        value={taken}
        aria-label="Storage used"
        aria-valuetext={`${formatBytes(usedBytes)} of ${formatBytes(quotaBytes)} used`}
      />
      <p className="storage-usage__text">
        {formatBytes(usedBytes)} of {formatBytes(quotaBytes)} used · {formatBytes(remainingBytes)} left
      </p>
      {reservedBytes > 0 ? <p className="storage-usage__note">{formatBytes(reservedBytes)} held for uploads in progress</p> : null}
      {remainingBytes === 0 ? (
        <p className="storage-usage__note storage-usage__note--full" role="status">
          Your storage is full. Delete videos or images to upload more.
        </p>
      ) : null}
    </section>
  );
}
