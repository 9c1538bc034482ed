import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateViewingPreferences, useViewingPreferences } from '../api/viewing-preferences';

/** "Always show sensitive media" (Settings): no blurred cover before what is marked sensitive. */
export function SensitiveMediaSetting() {
  const preferences = useViewingPreferences();
  const update = useUpdateViewingPreferences();
  return (
    <section className="card settings-card" aria-labelledby="sensitive-media-title">
      <h2 id="sensitive-media-title">Sensitive media</h2>
      <Switch
        label="Always show sensitive media"
        description="Off: timelines, videos and posts marked sensitive show a blurred cover with a Show button first."
        checked={preferences.data?.alwaysShowSensitive ?? false}
        disabled={!preferences.data || update.isPending}
        onCheckedChange={(on) =>
          update.mutate(
            { alwaysShowSensitive: on },
            { onError: (error) => toast({ title: 'Could not save', description: errorMessage(error, 'Please try again'), variant: 'destructive' }) },
          )
        }
      />
    </section>
  );
}
