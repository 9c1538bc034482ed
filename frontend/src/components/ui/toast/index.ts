export { toast, dismissToast } from './toast-store';
export { Toaster } from './toaster';
