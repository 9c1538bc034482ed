import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { useLoadedModule } from './loaded-module';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class Catch extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
  }
}

describe('useLoadedModule', () => {
  it('shows what the caller shows while loading (never a Suspense fallback), then the module', async () => {
    const load = deferred<{ Greeting: () => ReactNode }>();
    const loader = () => load.promise;
    function Screen() {
      const module = useLoadedModule(loader);
      return module ? <module.Greeting /> : <p>splash</p>;
    }
    render(
      <Suspense fallback={<p>suspended</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByText('splash')).toBeInTheDocument();
    load.resolve({ Greeting: () => <p>hello</p> });
    expect(await screen.findByText('hello')).toBeInTheDocument();
    expect(screen.queryByText('suspended')).not.toBeInTheDocument();
  });

  it('renders a module that loaded before its first use at once, and loads each one once', async () => {
    let calls = 0;
    const loader = () => {
      calls += 1;
      return Promise.resolve({ name: 'ready' });
    };
    function Name() {
      return <p>{useLoadedModule(loader)?.name ?? 'waiting'}</p>;
    }
    const first = render(<Name />);
    expect(await screen.findByText('ready')).toBeInTheDocument();
    first.unmount();
    render(<Name />);
    expect(screen.getByText('ready')).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('throws a failed load to the nearest error boundary', async () => {
    const load = deferred<{ name: string }>();
    const loader = () => load.promise;
    function Name() {
      return <p>{useLoadedModule(loader)?.name ?? 'waiting'}</p>;
    }
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Catch>
        <Name />
      </Catch>,
    );
    load.reject(new Error('chunk missing'));
    expect(await screen.findByText('failed: chunk missing')).toBeInTheDocument();
    errors.mockRestore();
  });
});
