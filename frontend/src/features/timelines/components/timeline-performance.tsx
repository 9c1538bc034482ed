import { Spinner } from '../../../components/ui/spinner';
import { formatDuration, pluralize } from '../../../lib/format';
import type { TimelineAnalytics } from '../api/get-timeline-analytics';
import { completionPercent, formatPeakTime } from '../lib/analytics-format';
import './timelines.css';

const dayFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** '2025-03-04' → 'Mar 4'. Days are calendar days as the server counts them, so read in UTC. */
export function formatDay(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

const CHART_WIDTH = 300;
const CHART_HEIGHT = 100;

function ViewsByDayChart({ days }: { days: TimelineAnalytics['viewsByDay'] }) {
  const max = Math.max(1, ...days.map((entry) => entry.views));
  const total = days.reduce((sum, entry) => sum + entry.views, 0);
  const busiest = days.reduce<(typeof days)[number] | undefined>((best, entry) => (!best || entry.views > best.views ? entry : best), undefined);
  const slot = CHART_WIDTH / Math.max(days.length, 1);
  const summary = busiest
    ? `Views by day over the last ${days.length} days: ${total} in all, most on ${formatDay(busiest.day)} with ${busiest.views}.`
    : 'No daily views recorded.';

  return (
    <figure className="chart">
      <figcaption className="chart__caption">Views by day</figcaption>
      <svg className="chart__svg" viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line className="chart__axis" x1="0" y1={CHART_HEIGHT - 0.5} x2={CHART_WIDTH} y2={CHART_HEIGHT - 0.5} />
        {days.map((entry, index) => {
          const height = (entry.views / max) * (CHART_HEIGHT - 4);
          return (
            <rect
              key={entry.day}
              className="chart__bar"
              x={index * slot + slot * 0.15}
              y={CHART_HEIGHT - height}
              width={slot * 0.7}
              height={height}
            >
              <title>{`${formatDay(entry.day)}: ${pluralize(entry.views, 'view')}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 ? (
        <div className="chart__range" aria-hidden="true">
          <span>{formatDay(days[0]?.day ?? '')}</span>
          <span>{formatDay(days[days.length - 1]?.day ?? '')}</span>
        </div>
      ) : null}
      <table className="visually-hidden">
        <caption>Views by day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
          </tr>
        </thead>
        <tbody>
          {days.map((entry) => (
            <tr key={entry.day}>
              <td>{formatDay(entry.day)}</td>
              <td>{entry.views}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function TopRegions({ regions }: { regions: TimelineAnalytics['topRegions'] }) {
  return (
    <figure className="chart">
      <figcaption className="chart__caption">Top regions</figcaption>
      {regions.length === 0 ? (
        <p className="muted">No regions recorded yet.</p>
      ) : (
        <ul className="regions">
          {regions.map((region) => {
            const percentage = Math.max(0, Math.min(100, region.percentage));
            return (
              <li key={region.region} className="regions__item">
                <span className="regions__name">{region.region}</span>
                <span className="regions__figures">
                  {pluralize(region.views, 'view')} · {Math.round(percentage)}%
                </span>
                <svg className="regions__bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
                  <rect className="regions__track" width="100" height="6" rx="3" />
                  <rect className="regions__fill" width={percentage} height="6" rx="3" />
                </svg>
              </li>
            );
          })}
        </ul>
      )}
    </figure>
  );
}

export interface TimelinePerformanceProps {
  analytics: TimelineAnalytics | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}

/** Timeline Performance: the timeline's real figures and charts, or an honest empty state. */
export function TimelinePerformance({ analytics, loading, failed, onRetry }: TimelinePerformanceProps) {
  let content;
  if (loading) {
    content = <Spinner label="Loading performance..." />;
  } else if (failed || !analytics) {
    content = (
      <div className="section-state">
        <p>Performance figures could not be loaded.</p>
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (!analytics.hasData) {
    content = (
      <div className="section-state">
        <p className="section-state__title">No views yet</p>
        <p>Figures appear here once people start watching this timeline.</p>
      </div>
    );
  } else {
    const stats: [string, string][] = [
      ['Total views', analytics.totalViews.toLocaleString('en')],
      ['Unique viewers', analytics.uniqueViewers.toLocaleString('en')],
      ['Avg. watch time', formatDuration(analytics.avgWatchTime)],
      ['Completion rate', `${completionPercent(analytics)}%`],
      ['Shares', analytics.shares.toLocaleString('en')],
      ['Downloads', analytics.downloads.toLocaleString('en')],
    ];
    content = (
      <>
        <dl className="stat-grid">
          {stats.map(([label, value]) => (
            <div key={label} className="stat-grid__item">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {analytics.peakViewingTime ? (
          <p className="muted">
            Most views come around <strong>{formatPeakTime(analytics.peakViewingTime)}</strong>.
          </p>
        ) : null}
        <div className="chart-grid">
          <ViewsByDayChart days={analytics.viewsByDay} />
          <TopRegions regions={analytics.topRegions} />
        </div>
      </>
    );
  }

  return (
    <section className="card studio-section" aria-labelledby="performance-title">
      <h2 className="studio-section__title" id="performance-title">
        Timeline Performance
      </h2>
      {content}
    </section>
  );
}
