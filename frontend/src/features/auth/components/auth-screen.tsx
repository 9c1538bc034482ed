import { useState } from 'react';
import { Logo } from '../../../components/ui/logo';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import './auth-screen.css';

/** Sign in and sign up, toggled by links (spec 001, section 2), and "Forgot password?". */
export function AuthScreen() {
  const [mode, setMode] = useState<'login' | 'register' | 'forgot'>('login');
  return (
    <main className="auth-screen" id="main">
      <div className="auth-screen__card">
        <div className="auth-screen__brand">
          <Logo />
        </div>
        {mode === 'login' ? (
          <LoginForm onSwitch={() => setMode('register')} onForgot={() => setMode('forgot')} />
        ) : mode === 'forgot' ? (
          <ForgotPasswordForm onBack={() => setMode('login')} />
        ) : (
          <RegisterForm onSwitch={() => setMode('login')} />
        )}
      </div>
    </main>
  );
}
