import * as ToastPrimitive from '@radix-ui/react-toast';
import { CloseIcon } from '../icons';
import { dismissToast, type ToastMessage } from './toast-store';
import './toast.css';

export default function ToastView({ message }: { message: ToastMessage | null }) {
  return (
    <ToastPrimitive.Provider swipeDirection="down" duration={5000}>
      {message ? (
        <ToastPrimitive.Root
          key={message.id}
          className={`toast toast--${message.variant ?? 'default'}`}
          type={message.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(message.id);
          }}
        >
          <div className="toast__text">
            <ToastPrimitive.Title className="toast__title">{message.title}</ToastPrimitive.Title>
            {message.description ? (
              <ToastPrimitive.Description className="toast__description">{message.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close className="icon-button toast__close" aria-label="Dismiss notification">
            <CloseIcon width={18} height={18} />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ) : null}
      <ToastPrimitive.Viewport className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}
