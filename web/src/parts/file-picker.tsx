/** A button that opens the file chooser (a real button, so the keyboard reaches it), handing over the file picked. */
import { useRef } from 'preact/hooks';

interface Props {
  label: string;
  accept: string;
  onFile(file: File): void;
  disabled?: boolean;
}

export function FilePicker({ label, accept, onFile, disabled = false }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file !== undefined) onFile(file);
        }}
      />
    </>
  );
}
