import { useEffect, useState } from 'react';
import type { BatteryInfo, DeviceInfo, NetworkInfo, PlaybackConditions } from './playback-policy';

interface NetworkConnection extends NetworkInfo, EventTarget {}
interface BatteryManager extends EventTarget {
  level: number;
  charging: boolean;
}
type NavigatorWithExtras = Navigator & {
  connection?: NetworkConnection;
  deviceMemory?: number;
  getBattery?: () => Promise<BatteryManager>;
};

function readNetwork(): NetworkInfo {
  const connection = (navigator as NavigatorWithExtras).connection;
  if (!connection) return {};
  return { effectiveType: connection.effectiveType, downlink: connection.downlink, saveData: connection.saveData };
}

function readDevice(): DeviceInfo {
  const nav = navigator as NavigatorWithExtras;
  return { hardwareConcurrency: nav.hardwareConcurrency || undefined, deviceMemory: nav.deviceMemory };
}

/**
 * What the browser tells about the network, the battery and the device, kept current as they
 * change. Browsers without these APIs report nothing, and the player then assumes a good network.
 */
export function usePlaybackConditions(): PlaybackConditions {
  const [network, setNetwork] = useState<NetworkInfo>(readNetwork);
  const [battery, setBattery] = useState<BatteryInfo | undefined>(undefined);
  const [device] = useState<DeviceInfo>(readDevice);

  useEffect(() => {
    const connection = (navigator as NavigatorWithExtras).connection;
    if (!connection) return;
    const onChange = () => setNetwork(readNetwork());
    connection.addEventListener('change', onChange);
    return () => connection.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    const getBattery = (navigator as NavigatorWithExtras).getBattery;
    if (typeof getBattery !== 'function') return;
    let manager: BatteryManager | undefined;
    let active = true;
    const onChange = () => {
      if (manager) setBattery({ level: manager.level, charging: manager.charging });
    };
    getBattery
      .call(navigator)
      .then((found) => {
        if (!active) return;
        manager = found;
        onChange();
        found.addEventListener('levelchange', onChange);
        found.addEventListener('chargingchange', onChange);
      })
      .catch(() => undefined);
    return () => {
      active = false;
      manager?.removeEventListener('levelchange', onChange);
      manager?.removeEventListener('chargingchange', onChange);
    };
  }, []);

  return { network, battery, device };
}
